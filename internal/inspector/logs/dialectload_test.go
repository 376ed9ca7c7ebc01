package logs

import (
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"
)

// A sparse file of 64 MB is refused for its size having read a megabyte of
// it, not all of it (os.ReadFile read it whole first: /dev/zero ate 2 GB).
func TestLoadDialectsReadsABoundedPrefix(t *testing.T) {
	path := filepath.Join(t.TempDir(), "huge.yaml")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(64 << 20); err != nil {
		t.Fatal(err)
	}
	f.Close()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	_, err = LoadDialects(path)
	runtime.ReadMemStats(&after)
	if de, ok := errors.AsType[*DialectError](err); !ok || !strings.Contains(de.Err, "over 1048576 bytes") {
		t.Errorf("LoadDialects(64 MB) = %v, want over 1048576 bytes", err)
	}
	if got := after.TotalAlloc - before.TotalAlloc; got > 8<<20 {
		t.Errorf("LoadDialects(64 MB) allocated %d MB, want at most a few (a bounded read)", got>>20)
	}
}

// A FIFO with no writer is refused at once: its open used to wait for a
// writer, out of reach of Ctrl-C, for ever.
func TestLoadDialectsRefusesAFIFO(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "dialects.fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	done := make(chan error, 1)
	go func() {
		_, err := LoadDialects(fifo)
		done <- err
	}()
	select {
	case err := <-done:
		if de, ok := errors.AsType[*DialectError](err); !ok || !strings.Contains(de.Err, "not a regular file (a FIFO)") || de.Field != "(file)" {
			t.Errorf("LoadDialects(FIFO) = %v, want not a regular file (a FIFO)", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("LoadDialects(FIFO) still waiting after 10s for a writer")
	}
}

// A device is refused as a FIFO is, before a byte is read.
func TestLoadDialectsRefusesADevice(t *testing.T) {
	if _, err := os.Stat(os.DevNull); err != nil {
		t.Skip(err)
	}
	_, err := LoadDialects(os.DevNull)
	if de, ok := errors.AsType[*DialectError](err); !ok || !strings.Contains(de.Err, "a device") {
		t.Errorf("LoadDialects(%s) = %v, want not a regular file (a device)", os.DevNull, err)
	}
}
