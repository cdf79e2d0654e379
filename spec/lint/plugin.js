// Redocly plugin: conventions that configurable rules cannot express (uniqueness across operations).
function uniqueClientMethod() {
  const seen = new Map();
  return {
    Operation(operation, { report, location }) {
      const name = operation['x-client-method'];
      if (typeof name !== 'string') return;
      if (seen.has(name)) {
        report({
          message: `x-client-method "${name}" is already used by ${seen.get(name)}; each operation needs its own client method.`,
          location: location.child('x-client-method'),
        });
      } else {
        seen.set(name, operation.operationId);
      }
    },
  };
}

export default function hostingApiPlugin() {
  return {
    id: 'hosting-api',
    rules: { oas3: { 'unique-client-method': uniqueClientMethod } },
  };
}
