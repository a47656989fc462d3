// A copy of a kept benchmark database (the 1M-line `bench_lists_load` of bench/lists-under-load.ts): made with
// CREATE DATABASE … TEMPLATE so the kept one is never written, given what a bench measures, then dropped.
import pg from 'pg';

export interface DatabaseCopy {
  name: string;
  url: string;
  drop(): Promise<void>;
}

async function onServer(serverUrl: string, sql: string): Promise<void> {
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    await admin.query(sql);
  } finally {
    await admin.end();
  }
}

/** `template` copied on the server `serverUrl` names, as `<template>_<tag>_<pid>`. */
export async function copyOfKeptDatabase(
  serverUrl: string,
  template: string,
  tag: string,
): Promise<DatabaseCopy> {
  const name = `${template}_${tag}_${process.pid}`;
  if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`not a plain identifier: ${name}`);
  await onServer(serverUrl, `CREATE DATABASE ${name} TEMPLATE ${template} STRATEGY FILE_COPY`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return { name, url: url.toString(), drop: () => onServer(serverUrl, `DROP DATABASE ${name}`) };
}
