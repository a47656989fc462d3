// Sample values for path parameters; a parameter with a pattern gets the first sample it accepts.
const SAMPLES = ['00000000-0000-4000-8000-000000000001', '1', '2026-01', 'sample'];

/** A route's Hono path (`/v2/admin/users/:id{…}`) with every parameter replaced by a value it accepts. */
export function samplePath(path: string): string {
  return path.replace(/:(\w+)(\{([^}]*)\})?/g, (_match, _name, _group, pattern?: string) => {
    if (!pattern) return SAMPLES[0]!;
    const accepts = new RegExp(`^(?:${pattern})$`);
    const sample = SAMPLES.find((value) => accepts.test(value));
    if (!sample) throw new Error(`No sample value for ${path}: add one matching ${pattern}`);
    return sample;
  });
}
