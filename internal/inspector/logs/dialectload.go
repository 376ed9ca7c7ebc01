package logs

import (
	"fmt"
	"io"
	"os"
	"syscall"
)

// maxDialectBytes bounds a dialect file: a few hundred lines is a lot.
const maxDialectBytes = 1 << 20

// LoadDialects reads a dialect file, or says at which line and field it is
// wrong.
//
// It reads at most maxDialectBytes+1 bytes, so that /dev/zero or a sparse
// file of gigabytes costs a megabyte, not its size; and it refuses what is
// not a regular file: a FIFO with no writer would block the open, and a
// device or pipe has no end to wait for, both out of an interrupt's reach
// (the file is read while flags are checked, before any context exists).
func LoadDialects(file string) ([]Dialect, error) {
	// O_NONBLOCK: opening a FIFO returns at once rather than waiting for a
	// writer, so that it can be refused below; a regular file reads the same.
	f, err := os.OpenFile(file, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if !st.Mode().IsRegular() {
		return nil, &DialectError{File: file, Line: 1, Field: "(file)",
			Err: fmt.Sprintf("not a regular file (%s): save the dialects to a file and give that", fileKind(st.Mode()))}
	}
	raw, err := io.ReadAll(io.LimitReader(f, maxDialectBytes+1))
	if err != nil {
		return nil, err
	}
	return parseDialects(file, raw, false)
}

// fileKind names what a non-regular file is, for the refusal.
func fileKind(m os.FileMode) string {
	switch {
	case m.IsDir():
		return "a directory"
	case m&os.ModeNamedPipe != 0:
		return "a FIFO"
	case m&os.ModeCharDevice != 0, m&os.ModeDevice != 0:
		return "a device"
	case m&os.ModeSocket != 0:
		return "a socket"
	}
	return "not a file"
}
