import { createElement, type ReactNode } from 'react';
import type { CitationNode } from './citation-html';

/** Sanitised citation nodes as React elements: every text is a text node, never markup. */
export function CitationView({ nodes }: { nodes: readonly CitationNode[] }) {
  return <>{renderNodes(nodes)}</>;
}

function renderNodes(nodes: readonly CitationNode[]): ReactNode[] {
  return nodes.map((node, index) => {
    if (typeof node === 'string') return node;
    const props: Record<string, string | number> = { key: index };
    if (node.className) props.className = node.className;
    if (node.href) {
      props.href = node.href;
      props.rel = 'noreferrer';
    }
    const element = createElement(node.tag, props, ...renderNodes(node.children));
    // A citation number is set apart by layout; the space keeps it apart in selected text too.
    return node.className?.split(' ').includes('csl-left-margin') ? [element, ' '] : element;
  });
}
