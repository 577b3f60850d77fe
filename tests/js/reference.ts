// The tests' reference implementation lives with the portable suite, which every engine runs.
export * from '../portable/reference';
