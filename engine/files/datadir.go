package files

import (
	"errors"
	"os"
	"path/filepath"
	"runtime"
)

// DataDir is where Querent keeps its own data (history, settings, the
// files it has already checked): $QUERENT_DATA_DIR, else
// $XDG_DATA_HOME/querent, else the platform's usual place
// (~/.local/share/querent, %AppData%\querent,
// ~/Library/Application Support/querent). Never beside the user's files.
// The folder is not created here.
func DataDir() (string, error) {
	if d := os.Getenv("QUERENT_DATA_DIR"); d != "" {
		return filepath.Abs(d)
	}
	if d := os.Getenv("XDG_DATA_HOME"); d != "" && filepath.IsAbs(d) {
		return filepath.Join(d, "querent"), nil
	}
	switch runtime.GOOS {
	case "windows":
		if d := os.Getenv("AppData"); d != "" {
			return filepath.Join(d, "querent"), nil
		}
		return "", errors.New("%AppData% is not set")
	case "darwin", "ios":
		home, err := os.UserHomeDir()
		if err != nil {
			return "", err
		}
		return filepath.Join(home, "Library", "Application Support", "querent"), nil
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(home, ".local", "share", "querent"), nil
}
