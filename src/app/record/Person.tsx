import { Link } from 'react-router';
import type { Deployment } from '../../deployments/schema';
import type { RecordText } from '../../formats/record-text';
import { personOf } from '../ui/format';
import { fieldSearchPath, identifierSearchPath } from '../ui/search-links';

/**
 * An author as a person: the name first (as the result list writes it, a search for the
 * person), then the affiliation and ORCID iD as quieter details, instead of the record's
 * `Name [Org] (ORCID:…)` string.
 */
export function Person({ deployment, raw }: { deployment: Deployment; raw: RecordText }) {
  const person = personOf(raw);
  const orcidSearch = person.orcid?.url ? identifierSearchPath(deployment, person.orcid.id) : undefined;
  return (
    <span className="person">
      <span className="person__name">
        <Link to={fieldSearchPath(deployment, 'authors', person.name)}>{person.name}</Link>
      </span>
      {(person.affiliation || person.orcid) && (
        <span className="person__details">
          {person.affiliation && <span className="person__affiliation">{person.affiliation}</span>}
          {person.orcid && (
            <span className="person__orcid">
              {person.orcid.url ? <a href={person.orcid.url}>ORCID {person.orcid.id}</a> : `ORCID ${person.orcid.id}`}
              {orcidSearch && (
                <>
                  {' '}
                  <Link to={orcidSearch} className="person__orcid-search">
                    Records with this ORCID iD<span className="visually-hidden"> ({person.name})</span>
                  </Link>
                </>
              )}
            </span>
          )}
        </span>
      )}
    </span>
  );
}
