package engine

import (
	"encoding/json"
	"fmt"
	"strings"
)

// Connection is the sub-agent contract's connection object: for a SQLite
// file {"db_type": "sqlite", "host": FILE}; for PostgreSQL
// {"db_type": "postgresql", "host": …, "port": 5432, "database": …,
// "username": …, "password": …, "ssl": true|false|"require"|…}, where empty
// fields come from the environment (PGHOST, PGUSER, ~/.pgpass…). The
// password is never shown, logged or stored by Querent.
type Connection struct {
	DBType   string  `json:"db_type"`
	Host     string  `json:"host"`
	Port     int     `json:"port,omitempty"`
	Database string  `json:"database"`
	Username string  `json:"username"`
	Password string  `json:"password,omitempty"`
	SSL      SSLMode `json:"ssl,omitempty"`
}

// SSLMode is libpq's sslmode (disable, allow, prefer, require, verify-ca,
// verify-full); in JSON it may also be true ("require") or false
// ("disable").
type SSLMode string

// UnmarshalJSON accepts a boolean or one of libpq's sslmode names.
func (m *SSLMode) UnmarshalJSON(b []byte) error {
	var on bool
	if err := json.Unmarshal(b, &on); err == nil {
		if on {
			*m = "require"
		} else {
			*m = "disable"
		}
		return nil
	}
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		return fmt.Errorf("ssl must be true, false or an sslmode (disable, allow, prefer, require, verify-ca, verify-full)")
	}
	switch strings.ToLower(s) {
	case "", "disable", "allow", "prefer", "require", "verify-ca", "verify-full":
		*m = SSLMode(strings.ToLower(s))
	case "true", "on", "yes":
		*m = "require"
	case "false", "off", "no":
		*m = "disable"
	default:
		return fmt.Errorf("ssl %q is not an sslmode (disable, allow, prefer, require, verify-ca, verify-full)", s)
	}
	return nil
}

// IsPostgres reports whether c names a PostgreSQL database
// ("postgresql", "postgres" or "pg", in any case).
func (c Connection) IsPostgres() bool {
	switch strings.ToLower(strings.TrimSpace(c.DBType)) {
	case "postgresql", "postgres", "pg":
		return true
	}
	return false
}
