package cli

import (
	"bytes"
	"compress/gzip"
	"context"
	"io"
	"testing"

	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/logs"
)

// FuzzGzipPipe: whatever a pipe carries (gzip whole, cut, corrupt, or not
// gzip), sniffPipe and the store read it or say why; never a panic.
func FuzzGzipPipe(f *testing.F) {
	var b bytes.Buffer
	z := gzip.NewWriter(&b)
	_, _ = z.Write([]byte(`{"level":"error","ts":"2025-06-01T10:00:00Z","msg":"Reconciler error","controller":"c","namespace":"n","name":"a","error":"boom"}` + "\n"))
	_ = z.Close()
	f.Add(b.Bytes())
	f.Add(b.Bytes()[:10])
	f.Add(b.Bytes()[:len(b.Bytes())/2])
	f.Add([]byte{0x1f, 0x8b})
	f.Add([]byte("plain text\n"))
	f.Fuzz(func(t *testing.T, raw []byte) {
		r, err := sniffPipe("stdin", bytes.NewReader(raw))
		if err != nil {
			return
		}
		s := logs.NewStore(logs.Options{Workers: 1})
		// Bounded: a gzip bomb in the corpus must not make a run slow.
		_, _, _ = s.Read(context.Background(), io.LimitReader(r, 1<<20))
	})
}
