package cli

import (
	"bytes"
	"fmt"
	"net"
	"os"
	"os/exec"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
	"unsafe"

	"k8s.io/cli-runtime/pkg/genericclioptions"
	"k8s.io/cli-runtime/pkg/genericiooptions"
)

// TestBinaryTopGivesUpAsGetSays: top on an address nothing listens on
// shows its retry panel, then, once the UI gives up (30s), exits with the
// very message get prints for that address: what was tried once, the
// cause, and what to try; not the URL twice in a Go error. top needs a
// terminal, so the binary runs on a pseudo-terminal.
func TestBinaryTopGivesUpAsGetSays(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary and waits for top to give up (30s)")
	}
	bin := buildBinary(t)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close() // nothing listens there now: connections are refused

	get := NewGetCommand(genericclioptions.NewConfigFlags(false), genericiooptions.NewTestIOStreamsDiscard())
	get.SetArgs([]string{"--addr", addr})
	get.SilenceErrors, get.SilenceUsage = true, true
	getErr := get.Execute()
	if getErr == nil {
		t.Fatalf("get --addr %s: no error", addr)
	}

	master, tty := openPTY(t)
	cmd := exec.Command(bin, "top", "--addr", addr)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = tty, tty, tty
	cmd.Env = append(os.Environ(), "NO_COLOR=1", "TERM=xterm")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill() })
	tty.Close() // the child holds it; reads on master end when the child exits
	var mu sync.Mutex
	var screen bytes.Buffer
	read := make(chan struct{})
	go func() {
		defer close(read)
		buf := make([]byte, 4096)
		for {
			n, err := master.Read(buf)
			mu.Lock()
			screen.Write(buf[:n])
			mu.Unlock()
			if err != nil {
				return
			}
		}
	}()

	if code := waitExit(t, cmd, time.Minute); code == 0 {
		t.Errorf("top gave up with exit code 0, want non-zero")
	}
	select {
	case <-read:
	case <-time.After(5 * time.Second):
	}
	mu.Lock()
	out := strings.ReplaceAll(screen.String(), "\r\n", "\n")
	mu.Unlock()
	i := strings.LastIndex(out, "error: ")
	if i < 0 {
		t.Fatalf("top printed no error; its output ends:\n%q", out[max(0, len(out)-500):])
	}
	last, _, _ := strings.Cut(out[i:], "\n")
	if e, a := "error: "+getErr.Error(), last; e != a {
		t.Errorf("top's last line:\n%s\nwant get's:\n%s", a, e)
	}
}

// openPTY opens a pseudo-terminal pair: the master to read what the child
// draws, the slave for its stdin, stdout and stderr.
func openPTY(t *testing.T) (master, tty *os.File) {
	t.Helper()
	master, err := os.OpenFile("/dev/ptmx", os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		t.Skipf("no pseudo-terminals here: %v", err)
	}
	t.Cleanup(func() { master.Close() })
	var unlock int32
	var n uint32
	ws := struct{ rows, cols, x, y uint16 }{rows: 24, cols: 100}
	for _, c := range []struct {
		req uintptr
		arg unsafe.Pointer
	}{{syscall.TIOCSPTLCK, unsafe.Pointer(&unlock)}, {syscall.TIOCGPTN, unsafe.Pointer(&n)}, {syscall.TIOCSWINSZ, unsafe.Pointer(&ws)}} {
		if _, _, errno := syscall.Syscall(syscall.SYS_IOCTL, master.Fd(), c.req, uintptr(c.arg)); errno != 0 {
			t.Fatalf("ioctl %#x on /dev/ptmx: %v", c.req, errno)
		}
	}
	tty, err = os.OpenFile(fmt.Sprintf("/dev/pts/%d", n), os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		t.Fatal(err)
	}
	return master, tty
}
