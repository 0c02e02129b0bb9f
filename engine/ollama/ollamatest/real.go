package ollamatest

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// RealHost returns the address of the real Ollama server the integration
// tests use ($QUERENT_OLLAMA_HOST: `make ollama` starts one from
// ../shared/tools/ollama-tiny), or skips the test.
func RealHost(t testing.TB) string {
	t.Helper()
	h := os.Getenv("QUERENT_OLLAMA_HOST")
	if h == "" {
		t.Skip("set QUERENT_OLLAMA_HOST to a real Ollama server (make ollama starts one: ../shared/tools/ollama-tiny/real-ollama.sh start)")
	}
	if !strings.Contains(h, "://") {
		h = "http://" + h
	}
	return h
}

var scripted sync.Map // name → error, for models registered once per test binary

// Scripted registers, on the real server at host, a model named name that
// answers exactly answer — in a few tokens, whatever the prompt — as
// ../shared/tools/ollama-tiny/real-ollama.sh add does (its generator, the
// server's blob and create endpoints), with a context of ctx tokens (that
// script's models have 4,096: too few for the whole Chinook prompt, which
// this model's one-character tokens make about 10,000 long). Write answer as
// the JSON object the request's schema asks for, properties in the schema's
// order, no spaces between tokens. The model is registered once per test
// binary.
func Scripted(t testing.TB, host, name, answer string, ctx int) {
	t.Helper()
	key := name + "\x00" + answer
	if v, ok := scripted.Load(key); ok {
		if v != nil {
			t.Fatal(v)
		}
		return
	}
	err := register(host, name, answer, ctx)
	if err != nil {
		scripted.Store(key, err)
		t.Fatal(err)
	}
	scripted.Store(key, nil)
}

func register(host, name, answer string, ctx int) error {
	tool, err := toolDir()
	if err != nil {
		return err
	}
	dir, err := os.MkdirTemp("", "querent-scripted-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	file := filepath.Join(dir, name+".gguf")
	cmd := exec.Command("go", "run", ".", "-out", file, "-answer", answer, "-ctx", fmt.Sprint(ctx))
	cmd.Dir = tool
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("generate the scripted model %s: %v\n%s", name, err, out)
	}
	blob, err := os.ReadFile(file)
	if err != nil {
		return err
	}
	sum := sha256.Sum256(blob)
	digest := "sha256:" + hex.EncodeToString(sum[:])
	client := &http.Client{Timeout: 2 * time.Minute}
	req, _ := http.NewRequest(http.MethodPost, host+"/api/blobs/"+digest, bytes.NewReader(blob))
	resp, err := client.Do(req)
	if err != nil {
		return fmt.Errorf("upload the scripted model %s: %v", name, err)
	}
	resp.Body.Close()
	if resp.StatusCode >= 300 {
		return fmt.Errorf("upload the scripted model %s: %s", name, resp.Status)
	}
	body, _ := json.Marshal(map[string]any{"model": name, "files": map[string]string{name + ".gguf": digest},
		"template": "{{- range .Messages }}{{ .Role }}: {{ .Content }}\n{{ end }}assistant: ", "stream": false})
	resp, err = client.Post(host+"/api/create", "application/json", bytes.NewReader(body))
	if err != nil {
		return fmt.Errorf("create the scripted model %s: %v", name, err)
	}
	resp.Body.Close()
	if resp.StatusCode >= 300 {
		return fmt.Errorf("create the scripted model %s: %s", name, resp.Status)
	}
	return nil
}

// toolDir finds ../shared/tools/ollama-tiny beside the checkout.
func toolDir() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			tool := filepath.Join(filepath.Dir(dir), "shared", "tools", "ollama-tiny")
			if _, err := os.Stat(filepath.Join(tool, "main.go")); err == nil {
				return tool, nil
			}
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", fmt.Errorf("../shared/tools/ollama-tiny is not beside the checkout")
		}
		dir = parent
	}
}
