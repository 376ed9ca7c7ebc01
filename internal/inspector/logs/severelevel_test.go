package logs

import (
	"bytes"
	"testing"
)

// TestSevereLevelFirstLetter: severeLevel's reject by the first letter
// gives the answer of comparing with every level, for every first byte of
// each level's spellings (any case, quoted or not) and of the levels
// loggers write that are not severe.
func TestSevereLevelFirstLetter(t *testing.T) {
	slow := func(level []byte) bool {
		if n := len(level); n >= 2 && level[0] == '"' && level[n-1] == '"' {
			level = level[1 : n-1]
		}
		for _, l := range severeLevels {
			if bytes.EqualFold(level, l) {
				return true
			}
		}
		return false
	}
	words := [][]byte{[]byte("info"), []byte("debug"), []byte("trace"), []byte("notice"), []byte(""), []byte(`""`)}
	for _, l := range severeLevels {
		words = append(words, l, bytes.ToUpper(l), []byte(`"`+string(l)+`"`))
	}
	for _, w := range words {
		for c := 0; c < 256; c++ {
			for _, v := range [][]byte{w, append([]byte{byte(c)}, w...), append([]byte{byte(c)}, w[min(1, len(w)):]...)} {
				if got, want := severeLevel(v), slow(v); got != want {
					t.Fatalf("severeLevel(%q) = %v, want %v", v, got, want)
				}
			}
		}
	}
}
