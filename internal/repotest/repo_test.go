package repotest

import "path/filepath"

// The directories this package checks, from its own (go test runs a
// package's tests in the package's directory).
var (
	repoRoot  = filepath.Join("..", "..")
	configDir = filepath.Join(repoRoot, "config")
	hackDir   = filepath.Join(repoRoot, "hack")
)

// fromRoot is path as a reader of the repository names it (config/rbac/…),
// for messages.
func fromRoot(path string) string {
	if rel, err := filepath.Rel(repoRoot, path); err == nil {
		return filepath.ToSlash(rel)
	}
	return path
}
