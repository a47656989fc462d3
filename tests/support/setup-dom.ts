import { configure } from '@testing-library/dom';

// Screens load lazily; on a loaded 2-core CI machine the first import of a chunk can take longer
// than Testing Library's default 1 s wait. This is how long `findBy…` waits, not a timing assertion.
configure({ asyncUtilTimeout: 10_000 });
