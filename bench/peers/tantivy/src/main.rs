//! tantivy 0.25 as a peer of the records engine (issue 41): the same records, the same
//! queries, timed in process as bench/class-profile.ts times ours.
//!
//!   tb build INDEX_DIR RECORDS.jsonl
//!   tb query INDEX_DIR QUERIES.jsonl PASSES OUT.jsonl
//!
//! A record line: {"id": n, "date": n|null, "title": "...", ... one key per search column}.
//! A query line: {"class": "...", "query": "QueryParser text"|null, "prefix": "text"|null,
//! "from": n|null, "to": n|null} (dates as digits of the ISO text, from inclusive, to exclusive).

use std::collections::BTreeMap;
use std::env;
use std::fs::{self, File};
use std::io::{BufRead, BufReader, BufWriter, Write};
use std::ops::Bound;
use std::path::Path;
use std::process::exit;
use std::time::Instant;

use serde::Deserialize;
use tantivy::collector::{Count, TopDocs};
use tantivy::query::{BooleanQuery, BoostQuery, Occur, Query, QueryParser, RangeQuery, RegexQuery};
use tantivy::schema::{
    Field, IndexRecordOption, Schema, TextFieldIndexing, TextOptions, FAST, INDEXED, STORED,
};
use tantivy::tokenizer::{
    AsciiFoldingFilter, Language, LowerCaser, RemoveLongFilter, SimpleTokenizer, Stemmer,
    TextAnalyzer,
};
use tantivy::{Index, IndexReader, ReloadPolicy, TantivyDocument, Term};

/// The search columns and their bm25 weights (src/deployments/search-model.ts, columnWeights).
const COLUMNS: [(&str, f32); 9] = [
    ("title", 10.0),
    ("authors", 5.0),
    ("subjects", 4.0),
    ("description", 2.0),
    ("biblio", 2.0),
    ("sponsor", 1.0),
    ("research", 1.0),
    ("contributing", 1.0),
    ("fulltext", 1.0),
];
const ANALYZER: &str = "en_stem";

/// Our FTS5 tokenizer is 'porter unicode61 remove_diacritics 2': tantivy's en_stem with the
/// accents folded is the nearest it has.
fn analyzer() -> TextAnalyzer {
    TextAnalyzer::builder(SimpleTokenizer::default())
        .filter(RemoveLongFilter::limit(40))
        .filter(LowerCaser)
        .filter(AsciiFoldingFilter)
        .filter(Stemmer::new(Language::English))
        .build()
}

fn schema() -> Schema {
    let mut builder = Schema::builder();
    let text = TextOptions::default().set_indexing_options(
        TextFieldIndexing::default()
            .set_tokenizer(ANALYZER)
            .set_index_option(IndexRecordOption::WithFreqsAndPositions),
    );
    for (name, _) in COLUMNS {
        builder.add_text_field(name, text.clone());
    }
    builder.add_i64_field("date", INDEXED | FAST);
    builder.add_u64_field("id", STORED | FAST);
    builder.build()
}

fn open(dir: &Path) -> tantivy::Result<Index> {
    let index = Index::open_in_dir(dir)?;
    index.tokenizers().register(ANALYZER, analyzer());
    Ok(index)
}

fn build(dir: &Path, records: &Path) -> tantivy::Result<()> {
    fs::create_dir_all(dir)?;
    let schema = schema();
    let index = Index::create_in_dir(dir, schema.clone())?;
    index.tokenizers().register(ANALYZER, analyzer());
    let fields: Vec<Field> = COLUMNS
        .iter()
        .map(|(name, _)| schema.get_field(name).unwrap())
        .collect();
    let date = schema.get_field("date").unwrap();
    let id = schema.get_field("id").unwrap();
    let started = Instant::now();
    let mut writer = index.writer_with_num_threads::<TantivyDocument>(1, 1_000_000_000)?;
    let mut count = 0u64;
    for line in BufReader::new(File::open(records)?).lines() {
        let line = line?;
        if line.is_empty() {
            continue;
        }
        let record: serde_json::Map<String, serde_json::Value> =
            serde_json::from_str(&line).expect("a record line is a JSON object");
        let mut doc = TantivyDocument::default();
        doc.add_u64(
            id,
            record["id"].as_u64().expect("a record has a numeric id"),
        );
        if let Some(d) = record.get("date").and_then(|d| d.as_i64()) {
            doc.add_i64(date, d);
        }
        for (field, (name, _)) in fields.iter().zip(COLUMNS) {
            if let Some(text) = record.get(name).and_then(|t| t.as_str()) {
                if !text.is_empty() {
                    doc.add_text(*field, text);
                }
            }
        }
        writer.add_document(doc)?;
        count += 1;
    }
    writer.commit()?;
    writer.wait_merging_threads()?;
    let segments = index.searchable_segment_ids()?.len();
    eprintln!(
        "indexed {count} records in {:.1} s wall, {segments} segment(s)",
        started.elapsed().as_secs_f64()
    );
    Ok(())
}

#[derive(Deserialize)]
struct QueryLine {
    class: String,
    query: Option<String>,
    prefix: Option<String>,
    from: Option<i64>,
    to: Option<i64>,
}

struct Asked {
    class: String,
    query: Box<dyn Query>,
}

/// A prefix as FTS5 and our engine read it: the text stemmed as a token, then every term
/// that begins with the stem, in each column with its weight.
fn prefix_query(schema: &Schema, text: &str) -> Box<dyn Query> {
    let mut analyzer = analyzer();
    let mut stream = analyzer.token_stream(text);
    let mut stem = String::new();
    while let Some(token) = stream.next() {
        stem = token.text.clone();
    }
    let pattern = format!("{}.*", regex_escape(&stem));
    let clauses = COLUMNS
        .iter()
        .map(|(name, weight)| {
            let field = schema.get_field(name).unwrap();
            let regex = RegexQuery::from_pattern(&pattern, field).expect("a valid pattern");
            let boosted: Box<dyn Query> = Box::new(BoostQuery::new(Box::new(regex), *weight));
            (Occur::Should, boosted)
        })
        .collect();
    Box::new(BooleanQuery::new(clauses))
}

fn regex_escape(text: &str) -> String {
    let mut out = String::new();
    for c in text.chars() {
        if "\\.+*?()|[]{}^$#&-~".contains(c) {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

fn parse_queries(index: &Index, path: &Path) -> Vec<Asked> {
    let schema = index.schema();
    let fields: Vec<Field> = COLUMNS
        .iter()
        .map(|(name, _)| schema.get_field(name).unwrap())
        .collect();
    let date = schema.get_field("date").unwrap();
    let mut parser = QueryParser::for_index(index, fields.clone());
    parser.set_conjunction_by_default();
    for (field, (_, weight)) in fields.iter().zip(COLUMNS) {
        parser.set_field_boost(*field, weight);
    }
    let reader = BufReader::new(File::open(path).expect("the queries file opens"));
    reader
        .lines()
        .map(|line| line.expect("the queries file reads"))
        .filter(|line| !line.is_empty())
        .map(|line| {
            let q: QueryLine = serde_json::from_str(&line).expect("a query line");
            let mut parts: Vec<(Occur, Box<dyn Query>)> = Vec::new();
            if let Some(text) = &q.query {
                let parsed = parser
                    .parse_query(text)
                    .unwrap_or_else(|e| panic!("{text}: {e:?}"));
                parts.push((Occur::Must, parsed));
            }
            if let Some(text) = &q.prefix {
                parts.push((Occur::Must, prefix_query(&schema, text)));
            }
            if q.from.is_some() || q.to.is_some() {
                let lower = q.from.map_or(Bound::Unbounded, |v| {
                    Bound::Included(Term::from_field_i64(date, v))
                });
                let upper = q.to.map_or(Bound::Unbounded, |v| {
                    Bound::Excluded(Term::from_field_i64(date, v))
                });
                parts.push((Occur::Must, Box::new(RangeQuery::new(lower, upper))));
            }
            let query = if parts.len() == 1 {
                parts.pop().unwrap().1
            } else {
                Box::new(BooleanQuery::new(parts))
            };
            Asked {
                class: q.class,
                query,
            }
        })
        .collect()
}

fn reader_of(dir: &Path) -> IndexReader {
    open(dir)
        .expect("the index opens")
        .reader_builder()
        .reload_policy(ReloadPolicy::Manual)
        .try_into()
        .expect("the index reads")
}

/// Nearest-rank percentile, as bench/stats.ts takes it.
fn percentile(sorted: &[f64], p: f64) -> f64 {
    if sorted.is_empty() {
        return f64::NAN;
    }
    let rank = ((p / 100.0) * sorted.len() as f64).ceil() as usize;
    sorted[rank.clamp(1, sorted.len()) - 1]
}

const MEASURES: [&str; 3] = ["top10", "count", "both"];

fn query(dir: &Path, queries: &Path, passes: usize, out: &Path) {
    let asked = parse_queries(&open(dir).expect("the index opens"), queries);
    let mut least = vec![[f64::INFINITY; 3]; asked.len()];
    let mut totals = vec![0usize; asked.len()];
    for _ in 0..passes {
        for (measure, _) in MEASURES.iter().enumerate() {
            // A pass opens the index afresh, as class-profile opens our engine for each pass.
            let reader = reader_of(dir);
            let searcher = reader.searcher();
            for (i, a) in asked.iter().enumerate() {
                let started = Instant::now();
                let total = match measure {
                    0 => {
                        let top = searcher.search(&a.query, &TopDocs::with_limit(10)).unwrap();
                        std::hint::black_box(&top);
                        None
                    }
                    1 => Some(searcher.search(&a.query, &Count).unwrap()),
                    _ => {
                        let (top, count) = searcher
                            .search(&a.query, &(TopDocs::with_limit(10), Count))
                            .unwrap();
                        std::hint::black_box(&top);
                        Some(count)
                    }
                };
                let ms = started.elapsed().as_secs_f64() * 1000.0;
                if let Some(total) = total {
                    totals[i] = total;
                }
                least[i][measure] = least[i][measure].min(ms);
            }
        }
    }
    let mut file = BufWriter::new(File::create(out).expect("the output file opens"));
    let mut by_class: BTreeMap<&str, (usize, Vec<Vec<f64>>)> = BTreeMap::new();
    let mut order: Vec<&str> = Vec::new();
    for (i, a) in asked.iter().enumerate() {
        let line = serde_json::json!({
            "class": a.class,
            "total": totals[i],
            "top10": least[i][0],
            "count": least[i][1],
            "both": least[i][2],
        });
        writeln!(file, "{line}").unwrap();
        let entry = by_class.entry(&a.class).or_insert_with(|| {
            order.push(&a.class);
            (0, vec![Vec::new(); 3])
        });
        entry.0 += 1;
        for m in 0..3 {
            entry.1[m].push(least[i][m]);
        }
    }
    file.flush().unwrap();
    println!(
        "{:<12} {:>4}  {:>15}  {:>15}  {:>15}  (ms; each query's least of {passes} passes)",
        "class", "n", "top10 p50/p95", "count p50/p95", "both p50/p95"
    );
    for class in order {
        let (n, samples) = by_class.get_mut(class).unwrap();
        let shown: Vec<String> = samples
            .iter_mut()
            .map(|s| {
                s.sort_by(|a, b| a.partial_cmp(b).unwrap());
                format!("{:>7.3} {:>7.3}", percentile(s, 50.0), percentile(s, 95.0))
            })
            .collect();
        println!("{class:<12} {n:>4}  {}", shown.join("  "));
    }
}

fn main() {
    let args: Vec<String> = env::args().collect();
    match args.get(1).map(String::as_str) {
        Some("build") if args.len() == 4 => {
            if let Err(e) = build(Path::new(&args[2]), Path::new(&args[3])) {
                eprintln!("build failed: {e}");
                exit(1);
            }
        }
        Some("query") if args.len() == 6 => {
            let passes: usize = args[4].parse().expect("PASSES is a number");
            query(
                Path::new(&args[2]),
                Path::new(&args[3]),
                passes.max(1),
                Path::new(&args[5]),
            );
        }
        _ => {
            eprintln!("usage: tb build INDEX_DIR RECORDS.jsonl | tb query INDEX_DIR QUERIES.jsonl PASSES OUT.jsonl");
            exit(2);
        }
    }
}
