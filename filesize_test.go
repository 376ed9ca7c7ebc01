package main

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// maxLines is STYLE.md's "files under ~400 lines": past it, a file holds
// more than one concept, and is split by concept (one a file), not cut.
const maxLines = 400

// longFiles are the files allowed past maxLines for now, each with why.
var longFiles = map[string]string{}

// TestFilesAreShort keeps the module's source files (tests aside) under
// maxLines, as STYLE.md asks.
func TestFilesAreShort(t *testing.T) {
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if n := d.Name(); path != "." && (strings.HasPrefix(n, ".") || n == "testdata" || n == "vendor") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		n := bytes.Count(b, []byte("\n"))
		if _, ok := longFiles[filepath.ToSlash(path)]; ok || n <= maxLines {
			return nil
		}
		t.Errorf("%s: %d lines, over %d: split it by concept (STYLE.md)", path, n, maxLines)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
