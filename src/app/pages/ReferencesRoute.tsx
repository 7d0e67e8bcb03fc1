import { displayName } from '../../deployments/registry';
import { CiteButton } from '../cite/CiteButton';
import { ReferencesPage } from '../references/ReferencesPage';
import { SelectPageCheckbox } from '../selection/SelectPageCheckbox';

/** The reference check, with the cite and selection features offered for each catalog's found works. */
export function ReferencesRoute() {
  return (
    <ReferencesPage
      catalogActions={(deployment, records, generated) => (
        <>
          <CiteButton deployment={deployment} records={records} generated={generated} label={`Cite (${displayName(deployment)})`} />
          <SelectPageCheckbox
            deployment={deployment}
            records={records}
            generated={generated}
            label={`Add to the ${displayName(deployment)} selection`}
          />
        </>
      )}
    />
  );
}
