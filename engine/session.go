package engine

import (
	"encoding/json"
	"time"
)

// Session is a conversation with one database, so that follow-up questions
// work ("and among those, how many are in Europe?"). The app keeps it in
// memory, the command line in a file (--session), the sub-agent contract in
// the JSON's session_context.
type Session struct {
	Database string `json:"database"`
	Turns    []Turn `json:"turns"`
}

// Turn is one answered question of a session.
type Turn struct {
	Question string    `json:"question"`
	SQL      string    `json:"sql"`
	Columns  []string  `json:"columns,omitempty"`
	RowCount int       `json:"row_count"`
	Time     time.Time `json:"time"`
}

// maxSessionTurns bounds what a session keeps (and what prompts show).
const maxSessionTurns = 10

// Add records an answered question, keeping the last turns.
func (s *Session) Add(t Turn) {
	s.Turns = append(s.Turns, t)
	if len(s.Turns) > maxSessionTurns {
		s.Turns = s.Turns[len(s.Turns)-maxSessionTurns:]
	}
}

// Context returns the session as the answer's session_context object.
func (s *Session) Context() map[string]any {
	m := map[string]any{}
	if s == nil {
		return m
	}
	b, _ := json.Marshal(s)
	_ = json.Unmarshal(b, &m)
	return m
}

// SessionFromContext reads a session back from a session_context object;
// an empty or foreign object gives an empty session.
func SessionFromContext(ctx map[string]any) *Session {
	s := &Session{}
	if len(ctx) == 0 {
		return s
	}
	b, err := json.Marshal(ctx)
	if err == nil {
		_ = json.Unmarshal(b, s)
	}
	return s
}
