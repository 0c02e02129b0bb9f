// Package web is the browser mode (`querent serve`): the desktop app's
// services and page over HTTP on 127.0.0.1, for users who prefer a browser
// and for testing the page in a real one.
//
// The protocol mirrors Wails' bindings: POST /call/<Service>.<Method> with a
// JSON array of arguments answers {"result": …} or {"error": {type, message,
// hint}}; GET /events is a stream of Server-Sent Events (event: name, data:
// JSON); GET /files/<id> downloads an export. Everything but the page's own
// files needs the per-launch token (header X-Querent-Token or ?token=), the
// Host header must name the server (no DNS rebinding), and a request with
// an Origin header must come from the server's own origin.
package web

import (
	"context"
	"crypto/rand"
	"crypto/subtle"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"time"

	"querent/engine/export"

	"querent/app/page"
	"querent/engine"
)

// Server serves the services and the page.
type Server struct {
	svc    *page.Services
	assets fs.FS
	token  string
	port   string

	services map[string]reflect.Value

	mu      sync.Mutex
	clients map[chan event]bool
	title   string

	files    map[string]string // download id → path
	filesDir string
}

type event struct {
	name string
	data []byte
}

// New returns a server for the services, with a fresh random token.
func New(svc *page.Services, assets fs.FS) (*Server, error) {
	b := make([]byte, 24)
	if _, err := rand.Read(b); err != nil {
		return nil, err
	}
	s := &Server{svc: svc, assets: assets, token: hex.EncodeToString(b), clients: map[chan event]bool{}, files: map[string]string{},
		services: map[string]reflect.Value{
			"Datasets": reflect.ValueOf(svc.Datasets), "Ask": reflect.ValueOf(svc.Ask), "Results": reflect.ValueOf(svc.Results),
			"Export": reflect.ValueOf(svc.Export), "Settings": reflect.ValueOf(svc.Settings), "Evaluate": reflect.ValueOf(svc.Evaluate),
			"History": reflect.ValueOf(svc.History), "Glossary": reflect.ValueOf(svc.Glossary),
			"Board":     reflect.ValueOf(svc.Board),
			"Sensitive": reflect.ValueOf(svc.Sensitive),
		}}
	svc.SetEvents(s)
	return s, nil
}

// Token is the per-launch token the page's URL carries.
func (s *Server) Token() string { return s.token }

// Listen binds a loopback address ("127.0.0.1:0" picks a free port). Only
// loopback addresses are accepted: the browser mode is for this machine.
func (s *Server) Listen(addr string) (net.Listener, error) {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return nil, engine.Errorf(engine.CodeUsage, "--addr %q is not host:port", addr).WithHint("for example 127.0.0.1:8765")
	}
	if ip := net.ParseIP(host); host != "localhost" && (ip == nil || !ip.IsLoopback()) {
		return nil, engine.Errorf(engine.CodeUsage, "--addr %s is not a loopback address", addr).WithHint(
			"the browser mode only listens on this machine (127.0.0.1): your data never leaves it")
	}
	if host == "localhost" {
		host = "127.0.0.1"
	}
	ln, err := net.Listen("tcp", net.JoinHostPort(host, port))
	if err != nil {
		return nil, engine.Errorf(engine.CodeUsage, "cannot listen on %s: %v", addr, err).WithErr(err).WithHint("choose another port with --addr, or leave it out for a free one")
	}
	_, s.port, _ = net.SplitHostPort(ln.Addr().String())
	return ln, nil
}

// URL is the address to open, token included.
func (s *Server) URL() string { return fmt.Sprintf("http://127.0.0.1:%s/?token=%s", s.port, s.token) }

// Serve serves on ln until ctx ends.
func (s *Server) Serve(ctx context.Context, ln net.Listener) error {
	srv := &http.Server{Handler: s.Handler(), ReadHeaderTimeout: 10 * time.Second}
	go func() {
		<-ctx.Done()
		sctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		srv.Shutdown(sctx)
	}()
	err := srv.Serve(ln)
	s.cleanupFiles()
	if errors.Is(err, http.ErrServerClosed) {
		return nil
	}
	return err
}

// Handler routes the requests.
func (s *Server) Handler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("POST /call/{target}", s.call)
	mux.HandleFunc("GET /events", s.events)
	mux.HandleFunc("GET /files/{id}", s.download)
	mux.Handle("GET /", http.FileServerFS(s.assets))
	return s.guard(mux)
}

// guard checks the Host, the Origin and, off the page's own files, the token.
func (s *Server) guard(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !s.ownHost(r.Host) {
			http.Error(w, "wrong Host: this server answers only as 127.0.0.1 or localhost", http.StatusForbidden)
			return
		}
		if o := r.Header.Get("Origin"); o != "" && o != "http://127.0.0.1:"+s.port && o != "http://localhost:"+s.port {
			http.Error(w, "wrong Origin: other pages may not call this server", http.StatusForbidden)
			return
		}
		if strings.HasPrefix(r.URL.Path, "/call/") || r.URL.Path == "/events" || strings.HasPrefix(r.URL.Path, "/files/") {
			tok := r.Header.Get("X-Querent-Token")
			if tok == "" {
				tok = r.URL.Query().Get("token")
			}
			if subtle.ConstantTimeCompare([]byte(tok), []byte(s.token)) != 1 {
				http.Error(w, "missing or wrong token: open the address querent serve printed", http.StatusUnauthorized)
				return
			}
		}
		w.Header().Set("X-Content-Type-Options", "nosniff")
		w.Header().Set("Referrer-Policy", "no-referrer")
		w.Header().Set("Content-Security-Policy", "default-src 'self'; img-src 'self' data: blob:; style-src 'self' 'unsafe-inline'; connect-src 'self'; frame-ancestors 'none'")
		next.ServeHTTP(w, r)
	})
}

func (s *Server) ownHost(host string) bool {
	return s.port != "" && (host == "127.0.0.1:"+s.port || host == "localhost:"+s.port)
}

// call runs Service.Method with the JSON arguments.
func (s *Server) call(w http.ResponseWriter, r *http.Request) {
	svcName, method, ok := strings.Cut(r.PathValue("target"), ".")
	sv, found := s.services[svcName]
	var m reflect.Value
	if ok && found {
		m = sv.MethodByName(method)
	}
	if !m.IsValid() {
		writeJSON(w, http.StatusNotFound, map[string]any{"error": page.ErrorDoc(engine.Errorf(engine.CodeUsage, "no method %s", r.PathValue("target")))})
		return
	}
	var raw []json.RawMessage
	body, err := io.ReadAll(io.LimitReader(r.Body, 4<<20))
	if err == nil && len(strings.TrimSpace(string(body))) > 0 {
		err = json.Unmarshal(body, &raw)
	}
	mt := m.Type()
	if err != nil || len(raw) != mt.NumIn() {
		writeJSON(w, http.StatusBadRequest, map[string]any{"error": page.ErrorDoc(engine.Errorf(engine.CodeUsage,
			"%s takes %d arguments as a JSON array", r.PathValue("target"), mt.NumIn()))})
		return
	}
	args := make([]reflect.Value, mt.NumIn())
	for i := range args {
		p := reflect.New(mt.In(i))
		if err := json.Unmarshal(raw[i], p.Interface()); err != nil {
			writeJSON(w, http.StatusBadRequest, map[string]any{"error": page.ErrorDoc(engine.Errorf(engine.CodeUsage,
				"argument %d of %s: %v", i+1, r.PathValue("target"), err).WithErr(err))})
			return
		}
		args[i] = p.Elem()
	}
	if svcName == "Export" && method == "Run" {
		args[0] = s.prepareDownload(args[0])
	}
	out := m.Call(args)
	var result any
	var callErr error
	switch len(out) {
	case 1:
		callErr, _ = out[0].Interface().(error)
	case 2:
		result = out[0].Interface()
		callErr, _ = out[1].Interface().(error)
	}
	if callErr != nil {
		writeJSON(w, http.StatusOK, map[string]any{"error": page.ErrorDoc(callErr)})
		return
	}
	if res, ok := result.(*page.ExportResult); ok && res != nil {
		s.offerDownload(res)
	}
	writeJSON(w, http.StatusOK, map[string]any{"result": result})
}

// prepareDownload sends an export with no path to a private temporary
// folder: the page downloads it from /files/<id>.
func (s *Server) prepareDownload(v reflect.Value) reflect.Value {
	req, ok := v.Interface().(export.Request)
	if !ok || req.Out != "" {
		return v
	}
	s.mu.Lock()
	if s.filesDir == "" {
		s.filesDir, _ = os.MkdirTemp("", "querent-serve-files-")
	}
	dir := s.filesDir
	s.mu.Unlock()
	format := req.Format
	if format != "csv" {
		format = "xlsx"
	}
	b := make([]byte, 8)
	rand.Read(b)
	req.Out = filepath.Join(dir, "export-"+hex.EncodeToString(b)+"."+format)
	return reflect.ValueOf(req)
}

func (s *Server) offerDownload(res *page.ExportResult) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.filesDir == "" || filepath.Dir(res.Path) != s.filesDir {
		return
	}
	b := make([]byte, 12)
	rand.Read(b)
	id := hex.EncodeToString(b)
	s.files[id] = res.Path
	res.Download = "/files/" + id
}

// download serves an export (the files go when the server stops).
func (s *Server) download(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	path, ok := s.files[r.PathValue("id")]
	s.mu.Unlock()
	if !ok {
		http.NotFound(w, r)
		return
	}
	name := "querent-export" + filepath.Ext(path)
	if n := r.URL.Query().Get("name"); n != "" && !strings.ContainsAny(n, `/\"`) {
		name = n
	}
	w.Header().Set("Content-Disposition", fmt.Sprintf(`attachment; filename="%s"`, name))
	http.ServeFile(w, r, path)
}

func (s *Server) cleanupFiles() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.filesDir != "" {
		os.RemoveAll(s.filesDir)
		s.filesDir = ""
	}
}

// events streams the services' events to the page.
func (s *Server) events(w http.ResponseWriter, r *http.Request) {
	fl, ok := w.(http.Flusher)
	if !ok {
		http.Error(w, "streaming unsupported", http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	ch := make(chan event, 64)
	s.mu.Lock()
	s.clients[ch] = true
	title := s.title
	s.mu.Unlock()
	defer func() {
		s.mu.Lock()
		delete(s.clients, ch)
		s.mu.Unlock()
	}()
	fmt.Fprint(w, ": connected\n\n")
	if title != "" {
		b, _ := json.Marshal(title)
		fmt.Fprintf(w, "event: %s\ndata: %s\n\n", page.EventWindowTitle, b)
	}
	fl.Flush()
	tick := time.NewTicker(15 * time.Second)
	defer tick.Stop()
	for {
		select {
		case <-r.Context().Done():
			return
		case e := <-ch:
			fmt.Fprintf(w, "event: %s\ndata: %s\n\n", e.name, e.data)
			fl.Flush()
		case <-tick.C:
			fmt.Fprint(w, ": keep-alive\n\n")
			fl.Flush()
		}
	}
}

// Emit sends an event to every connected page (page.Events).
func (s *Server) Emit(name string, data any) {
	b, err := json.Marshal(data)
	if err != nil {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	for ch := range s.clients {
		select {
		case ch <- event{name, b}:
		default: // a slow page misses a progress step rather than blocking the work
		}
	}
}

// SetTitle tells the page its title (page.Events).
func (s *Server) SetTitle(title string) {
	s.mu.Lock()
	s.title = title
	s.mu.Unlock()
	s.Emit(page.EventWindowTitle, title)
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.Encode(v)
}
