package demo

import (
	"errors"
	"io"
	"net"
	"strings"
	"syscall"
	"testing"
)

// A busy Listen address is said once, with what is likely holding it (a
// demo serves on the same default address) and the address that avoids it,
// as an *OptionError a command can say in its flag's name.
func TestListenOnABusyAddress(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	addr := ln.Addr().String()
	opts := DefaultOptions()
	opts.Keys, opts.Listen, opts.Out, opts.ErrOut = 10, addr, io.Discard, io.Discard
	d, err := Start(t.Context(), opts)
	if err == nil {
		d.Wait()
		t.Fatalf("Start on the busy %s: no error", addr)
	}
	msg := err.Error()
	if n := strings.Count(msg, addr); n != 1 {
		t.Errorf("%q names %s %d times, want once", msg, addr, n)
	}
	for _, want := range []string{"Listen " + addr + ": ", "address already in use", "another demo", "127.0.0.1:0"} {
		if !strings.Contains(msg, want) {
			t.Errorf("%q does not say %q", msg, want)
		}
	}
	if !errors.Is(err, syscall.EADDRINUSE) {
		t.Errorf("%v: want errors.Is EADDRINUSE", err)
	}
	if oe, ok := errors.AsType[*OptionError](err); !ok || oe.Field != "Listen" || oe.Value != addr || !oe.Busy() {
		t.Errorf("%#v: want an *OptionError of Listen %s, busy", err, addr)
	}
}
