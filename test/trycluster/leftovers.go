package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// A run stopped by SIGKILL cannot stop its children: envtest starts etcd and
// kube-apiserver in process groups of their own, so they outlive it. Each run
// records its children's pids (where /proc lists them: Linux) and the next
// run stops those still running one of the cache's binaries.

// childrenFile is where a run records its children's pids.
const childrenFile = "children"

// recordChildren writes the pids of this process's children that run a
// binary from assets.
func recordChildren(dir, assets string) error {
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return nil // no /proc: nothing to record
	}
	var pids []string
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil || parentOf(pid) != os.Getpid() || !runsFrom(pid, assets) {
			continue
		}
		pids = append(pids, e.Name())
	}
	return os.WriteFile(filepath.Join(dir, childrenFile), []byte(strings.Join(pids, "\n")+"\n"), 0o600)
}

// stopLeftovers stops the recorded children of an earlier run that are still
// running a binary from assets (an earlier run that stopped cleanly left
// none): the last started first, as envtest stops them (kube-apiserver before
// etcd), each given leftoverGrace after SIGTERM before SIGKILL.
func stopLeftovers(dir, assets string, errOut io.Writer) {
	b, err := os.ReadFile(filepath.Join(dir, childrenFile))
	if err != nil {
		return
	}
	pids := strings.Fields(string(b))
	for i := len(pids) - 1; i >= 0; i-- {
		pid, err := strconv.Atoi(pids[i])
		if err != nil || !runsFrom(pid, assets) {
			continue
		}
		if syscall.Kill(pid, syscall.SIGTERM) != nil {
			continue
		}
		how := "stopped"
		if !gone(pid, assets, leftoverGrace) {
			_ = syscall.Kill(pid, syscall.SIGKILL)
			how = "killed"
		}
		fmt.Fprintf(errOut, "trycluster: %s pid %d, left running by an earlier run that was killed\n", how, pid)
	}
	os.Remove(filepath.Join(dir, childrenFile))
}

// leftoverGrace is how long a leftover has to stop after SIGTERM:
// kube-apiserver whose etcd is gone can take longer than it is worth.
const leftoverGrace = 10 * time.Second

// gone waits up to d for pid to stop running a binary from assets.
func gone(pid int, assets string, d time.Duration) bool {
	deadline := time.Now().Add(d)
	for runsFrom(pid, assets) {
		if time.Now().After(deadline) {
			return false
		}
		time.Sleep(100 * time.Millisecond) // a poll of /proc: no handle to wait on another's child
	}
	return true
}

// parentOf is pid's parent, from /proc/PID/stat; -1 if unknown.
func parentOf(pid int) int {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return -1
	}
	// "pid (comm) state ppid …": comm may hold spaces and parentheses.
	i := bytes.LastIndexByte(b, ')')
	if i < 0 {
		return -1
	}
	fields := strings.Fields(string(b[i+1:]))
	if len(fields) < 2 {
		return -1
	}
	ppid, err := strconv.Atoi(fields[1])
	if err != nil {
		return -1
	}
	return ppid
}

// runsFrom reports whether pid's program is a file in dir.
func runsFrom(pid int, dir string) bool {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", pid))
	if err != nil {
		return false
	}
	argv0, _, _ := bytes.Cut(b, []byte{0})
	return filepath.Dir(string(argv0)) == filepath.Clean(dir)
}
