package logs

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"syscall"

	yaml "go.yaml.in/yaml/v3"
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
	return parseDialects(file, raw)
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

// decodeDialectYAML decodes raw's one YAML document into doc, refusing a
// second: yaml.Unmarshal read the first and dropped the rest unsaid.
func decodeDialectYAML(file string, raw []byte, doc *yaml.Node) error {
	dec := yaml.NewDecoder(bytes.NewReader(raw))
	if err := dec.Decode(doc); err != nil {
		if err == io.EOF {
			return nil // empty: parseDialects says what to give
		}
		return err
	}
	var next yaml.Node
	if err := dec.Decode(&next); err != nil {
		if err == io.EOF {
			return nil
		}
		return err
	}
	line := next.Line
	if len(next.Content) > 0 {
		line = next.Content[0].Line
	}
	return &DialectError{File: file, Line: line, Field: "(yaml)",
		Err: "a second YAML document (after ---): put every dialect in the first one's dialects: list"}
}

// twice refuses a field given twice in one mapping (YAML would keep the
// last, silently); k is the second, first the first one's value.
func twice(k *yaml.Node, field string, first *yaml.Node, bad badFunc) error {
	return bad(k, field, "given twice (first at line %d): give it once", first.Line)
}

// wantStrings refuses, among m's fields, one that is not a non-empty
// string: a mapping, a list, a bare `regexp:` (null) or "" read as an
// empty pattern that matched every message.
func wantStrings(m map[string]*yaml.Node, bad badFunc, fields ...string) error {
	for _, f := range fields {
		v := m[f]
		switch {
		case v == nil:
		case v.Kind == yaml.MappingNode:
			return bad(v, f, "want a string, not a mapping (%s: VALUE on one line)", f)
		case v.Kind == yaml.SequenceNode:
			return bad(v, f, "want a string, not a list")
		case v.Kind != yaml.ScalarNode:
			return bad(v, f, "want a string")
		case (v.Tag == "!!null" || v.Value == "") && f != "name" && f != "controller" && f != "means":
			return bad(v, f, "empty: want a non-empty string (an empty %s would match every message)", f)
		case v.Tag == "!!null" || v.Value == "":
			return bad(v, f, "empty: want a non-empty string")
		}
	}
	return nil
}
