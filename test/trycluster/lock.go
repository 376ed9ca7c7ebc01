package main

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
)

// lockDir makes dir this run's alone: a second run with the same directory
// is refused while the first holds the lock (it says which pid), and a run
// after a finished one starts clean. unlock releases it.
func lockDir(dir string) (unlock func(), err error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, err
	}
	f, err := os.OpenFile(filepath.Join(dir, "lock"), os.O_CREATE|os.O_RDWR, 0o600)
	if err != nil {
		return nil, err
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		f.Close()
		if errors.Is(err, syscall.EWOULDBLOCK) {
			pid, _ := os.ReadFile(filepath.Join(dir, "pid"))
			return nil, fmt.Errorf("another try-cluster (pid %s) is running with %s: use its cluster (KUBECONFIG=%s), or stop it first (Ctrl-C in its terminal, or kill %[1]s)",
				strings.TrimSpace(string(pid)), dir, filepath.Join(dir, "kubeconfig"))
		}
		return nil, fmt.Errorf("lock %s: %w", dir, err)
	}
	// What an earlier run left: its logs and kwok's files (its kubeconfig
	// was removed when it stopped, unless it was killed).
	for _, name := range []string{"kubeconfig", "controller.log", "demo.log", "kwok", "pid"} {
		if err := os.RemoveAll(filepath.Join(dir, name)); err != nil {
			f.Close()
			return nil, err
		}
	}
	pidFile := filepath.Join(dir, "pid")
	if err := os.WriteFile(pidFile, []byte(strconv.Itoa(os.Getpid())+"\n"), 0o600); err != nil {
		f.Close()
		return nil, err
	}
	return func() {
		os.Remove(pidFile)
		f.Close() // releases the lock
	}, nil
}
