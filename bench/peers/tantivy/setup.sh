#!/usr/bin/env bash
# Builds the tantivy peer (tb) without the Rust crate registry: Debian bookworm's
# librust-*-dev crates serve as the registry, and the crates Debian lacks (or has too old)
# are checked out from their public repositories at the releases listed in crates.tsv.
#
#   setup.sh WORK_DIR
#
# WORK_DIR receives the checkouts (src/), cargo's config, the target dir and the binary
# (WORK_DIR/tb). Repositories come from TANTIVY_PEER_MIRRORS/<owner>+<name>/repo when that
# holds a git dir of them, else from a clone of github.com/<owner>/<name>.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
work=${1:?usage: setup.sh WORK_DIR}
mkdir -p "$work" && work=$(cd "$work" && pwd)

# Debian bookworm's crates that the build takes from the registry directory (the rest of
# what these pull in comes along with apt).
debian_crates=(arc-swap async-trait autocfg base64 byteorder cfg-if crc32fast
  crossbeam-channel crossbeam-deque crossbeam-epoch crossbeam-utils crunchy either errno
  fnv futures-core futures-macro futures-task futures-util getrandom ident-case libc libm
  log memchr memoffset minimal-lexical nom num-traits num-cpus once-cell pin-project-lite
  pin-utils ppv-lite86 rand rand-chacha rand-core rand-distr rayon rayon-core regex
  regex-syntax scopeguard slab smallvec stable-deref-trait syn utf8-ranges uuid winapi
  winapi-i686-pc-windows-gnu winapi-x86-64-pc-windows-gnu)
registry=/usr/share/cargo/registry
missing=()
for c in "${debian_crates[@]}"; do
  dpkg -s "librust-$c-dev" >/dev/null 2>&1 || missing+=("librust-$c-dev")
done
if ((${#missing[@]})); then
  apt-get install -y -q --no-install-recommends "${missing[@]}"
fi

git_dir() {
  local repo=$1 mirror=${TANTIVY_PEER_MIRRORS:-}/${1/\//+}/repo
  if [[ -n ${TANTIVY_PEER_MIRRORS:-} && -d $mirror/.git ]]; then
    echo "$mirror/.git"
  elif [[ -n ${TANTIVY_PEER_MIRRORS:-} && -d $mirror/objects ]]; then
    echo "$mirror"
  else
    local bare=$work/git/${repo/\//+}.git
    [[ -d $bare ]] || git clone -q --bare "https://github.com/$repo" "$bare"
    echo "$bare"
  fi
}

# Check out each repository once per revision; crate paths go into cargo's [patch].
mkdir -p "$work/src" "$work/.cargo"
patches=""
while IFS=$'\t' read -r crate version repo rev dir; do
  [[ -z $crate || $crate == \#* ]] && continue
  out=$work/src/${repo/\//+}-$rev
  if [[ ! -d $out ]]; then
    mkdir -p "$out.part"
    gd=$(git_dir "$repo")
    # A snapshot may lack its largest blobs (test data): check out all but those.
    export GIT_INDEX_FILE=$work/checkout.index
    git --git-dir="$gd" read-tree "$rev"
    git --git-dir="$gd" ls-files -s | awk '{ print $2 }' | git --git-dir="$gd" cat-file --batch-check |
      awk '$2 == "missing" { print $1 }' >"$work/absent"
    if [[ -s $work/absent ]]; then
      git --git-dir="$gd" ls-files -s | grep -F -f "$work/absent" | cut -f2- |
        git --git-dir="$gd" update-index --force-remove --stdin
    fi
    git --git-dir="$gd" --work-tree="$out.part" checkout-index -a -f
    unset GIT_INDEX_FILE
    mv "$out.part" "$out"
  fi
  path=$out/$dir
  [[ $dir == . ]] && path=$out
  got=$(sed -n 's/^version *= *"\([^"]*\)".*/\1/p' "$path/Cargo.toml" | head -1)
  if [[ -n $got && $got != "$version" ]]; then
    echo "$crate: $repo@$rev holds $got, not $version" >&2
    exit 1
  fi
  patches+="$crate = { path = \"$path\" }"$'\n'
done <"$here/crates.tsv"

src=$work/src
# Edits to the checked-out copies (none to tantivy's own code), made once: touching the
# files again would rebuild the crates.
if [[ ! -e $src/.edited ]]; then
edit() { perl -0pi -e "$2" "$src/$1"; }
# Cargo resolves every target's dependencies; the Windows ones (windows-sys) are not here.
drop_windows_tables() {
  python3 - "$src/$1" <<'PY'
import re, sys
path = sys.argv[1]
out, skip = [], False
for line in open(path).read().split("\n"):
    if re.match(r"\[\[?[A-Za-z]", line):
        skip = line.startswith("[target.'cfg(windows)'")
    if not skip:
        out.append(line)
open(path, "w").write("\n".join(out))
PY
}
for m in al8n+fs4-rs-511e2d2 Stebalien+tempfile-v3.19.1 bytecodealliance+rustix-v1.0.5 quickwit-oss+tantivy-0.25.0; do
  drop_windows_tables "$m/Cargo.toml"
done
# Debian's libc is 0.2.139.
edit RazrFalcon+memmap2-rs-v0.9.2/Cargo.toml 's/libc = "0\.2\.\d+"/libc = "0.2.139"/g'
edit bytecodealliance+rustix-v1.0.5/Cargo.toml 's/(libc[-_a-z]* = \{ version = ")0\.2\.\d+/${1}0.2.139/g; s/(package = "errno", version = ")0\.3\.\d+/${1}0.2/g'
# libc 0.2.139 lacks MADV_POPULATE_READ/WRITE; these are their Linux values.
edit RazrFalcon+memmap2-rs-v0.9.2/src/advice.rs 's/libc::MADV_POPULATE_READ\b/22/g; s/libc::MADV_POPULATE_WRITE\b/23/g'
# Debian's once_cell is 1.17, futures-util 0.3.21.
edit Stebalien+tempfile-v3.19.1/Cargo.toml 's/once_cell = \{ version = "1\.19\.0"/once_cell = { version = "1.17.0"/; s/default = \["getrandom"\]/default = []/'
edit quickwit-oss+tantivy-0.25.0/sstable/Cargo.toml 's/futures-util = "0\.3\.\d+"/futures-util = "0.3.21"/g'
touch "$src/.edited"
fi

cat >"$work/.cargo/config.toml" <<EOF
[source.crates-io]
replace-with = "debian"

[source.debian]
directory = "$registry"

[net]
offline = true

[build]
# The checkouts are path crates, which cargo lints as local code.
rustflags = ["--cap-lints", "warn"]
target-dir = "$work/target"

[patch.crates-io]
$patches
EOF

mkdir -p "$work/tb-crate"
cp "$here/Cargo.toml" "$work/tb-crate/"
rm -rf "$work/tb-crate/src" && cp -r "$here/src" "$work/tb-crate/src"
cd "$work/tb-crate"
nice -n 10 cargo build --release -j "${TANTIVY_PEER_JOBS:-1}"
cp "$work/target/release/tb" "$work/tb"
echo "built $work/tb"
