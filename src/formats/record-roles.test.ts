import { describe, expect, it } from 'vitest';
import { deploymentByKey, type ApiRecord } from '../deployments/registry';
import type { Deployment } from '../deployments/schema';
import { recordToFullBibtex } from './bibtex-full';
import { recordToCsl } from './csl';
import { filledRole, roleValue } from './record-roles';

/**
 * The deployment table alone says which field is the journal or the title: a deployment
 * that names them otherwise is cited and exported from its own fields, with no change here.
 */

const lit = deploymentByKey('LIT')!;
const mm = deploymentByKey('MM')!;

/** LIT with its journal field renamed `container`, and its title field `headline`. */
const renamed: Deployment = {
  ...lit,
  fields: lit.fields.map((field) =>
    field.name === 'journal_name' ? { ...field, name: 'container' } : field.name === 'title' ? { ...field, name: 'headline' } : field,
  ),
};

const record: ApiRecord = {
  repo_id: '7',
  headline: 'Transport in tokamaks',
  container: 'Nuclear Fusion',
  journal_name: 'Not this one',
  product_type: 'Journal Article',
  authors: ['Doe, Jane'],
};

describe('fields by role', () => {
  it('cites the fields the table gives the title and journal roles', () => {
    const csl = recordToCsl(renamed, record);
    expect(csl).toMatchObject({ title: 'Transport in tokamaks', 'container-title': 'Nuclear Fusion', type: 'article-journal' });
    const bibtex = recordToFullBibtex(renamed, record, 'r');
    expect(bibtex).toContain('title = {{Transport} in tokamaks}');
    expect(bibtex).toContain('journal = {Nuclear Fusion}');
    expect(bibtex).not.toContain('Not this one');
  });

  it('gives the first role the record fills: a video without a journal shows its media type', () => {
    const video: ApiRecord = { repo_id: '1', title: 'Plasma', journal_name: '', mime_type: 'video/mp4' };
    expect(filledRole(mm, video, 'journal', 'mediaType')).toEqual({ field: 'mime_type', value: 'video/mp4' });
    expect(filledRole(mm, { ...video, journal_name: 'Physics Today' }, 'journal', 'mediaType')).toEqual({
      field: 'journal_name',
      value: 'Physics Today',
    });
    expect(roleValue(deploymentByKey('DC1')!, video, 'journal')).toBeUndefined();
  });
});
