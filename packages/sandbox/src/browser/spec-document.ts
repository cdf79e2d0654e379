// Browser build: the bundled spec document, inlined (see src/spec-document.ts).
import document from '@hosting-api/openapi/openapi.json';

export const specDocument: object | undefined = document;
