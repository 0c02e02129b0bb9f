// The page's words in English: the source of the catalogue's keys. fr.ts and
// zh.ts are typed as Messages, so a key missing there (or one too many)
// fails `npm run check`; i18n.test.ts checks the same at run time. A
// message that takes values is a function; numbers in it are written with
// the locale's separators by the caller (formatCount).

export const en = {
  connect: {
    title: 'Connect to PostgreSQL',
    open: 'Connect to PostgreSQL…',
    openHint: 'A database on a PostgreSQL server, read through a read-only connection.',
    saved: 'Saved connections',
    savedHelp: 'Pick one to fill the form; type its password again.',
    forget: (name: string) => `Forget the saved connection ${name}`,
    host: 'Host',
    hostPlaceholder: 'localhost or db.example.com',
    port: 'Port',
    database: 'Database',
    username: 'User',
    password: 'Password',
    passwordHelp: 'Used for this connection only: never saved, never shown again. Leave empty to use ~/.pgpass or PGPASSWORD.',
    ssl: 'SSL',
    sslModes: {
      '': 'Prefer (libpq’s default)',
      disable: 'Disable',
      require: 'Require',
      'verify-ca': 'Verify the certificate authority',
      'verify-full': 'Verify the certificate and host name',
    } as Record<string, string>,
    save: 'Save this connection (without its password)',
    name: 'Name',
    namePlaceholder: (def: string) => def,
    defaultName: (db: string, host: string) => `${db || 'database'} on ${host || 'this machine'}`,
    portInvalid: 'The port is a number from 1 to 65535 (PostgreSQL listens on 5432 unless told otherwise).',
    databaseMissing: 'Type the name of the database to open.',
    test: 'Test connection',
    connect: 'Connect',
    cancel: 'Cancel',
    stop: 'Stop',
    testing: 'Testing the connection…',
    connecting: 'Connecting…',
    stopped: 'Stopped: nothing was opened.',
    tested: (s: string) => `Connected in ${s} s and disconnected.`,
    readable: (tables: string, views: string) => `Can read ${tables} and ${views}.`,
    readableTables: (tables: string) => `Can read ${tables}.`,
    tables: (n: number, count: string) => `${count} table${n === 1 ? '' : 's'}`,
    views: (n: number, count: string) => `${count} view${n === 1 ? '' : 's'}`,
    readOnlyRole: 'This role may only read: good.',
    warningTitle: 'Be careful with this role',
    facts: {
      server: 'Server',
      'database name': 'Database',
      role: 'Role',
      'server version': 'Version',
      'snapshot time': 'Snapshot time',
    } as Record<string, string>,
    safety: 'Querent reads through a read-only transaction with a timeout, whatever the role. A SELECT-only role is the safeguard that does not depend on Querent.',
  },
  topbar: {
    openAnother: (name: string) => `Open another database (now open: ${name}, read-only)`,
  },
  dataset: {
    postgres: 'PostgreSQL',
    postgresTitle: (server: string) => `PostgreSQL database ${server}: every query runs in a read-only transaction`,
    readOnly: 'Read-only',
    readOnlyFile: 'Querent never changes this file: every query is checked and runs read-only',
    readOnlyServer: 'Querent never changes this database: every query is checked and runs in a read-only transaction',
    roleWarning: 'Mind this connection:',
  },
};

export type Messages = typeof en;
