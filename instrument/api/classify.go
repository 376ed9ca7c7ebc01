package api

import (
	"bytes"
	"strings"
	"unicode/utf8"
)

// A message's class from its words, for errors whose chain is lost: every
// error log mode reads, and errors the instrument sees without a type it
// knows (fmt.Errorf with %v, a remote message). Only unambiguous words
// count: a message with words of both lists, or of neither, is unknown. The
// words are those of the Kubernetes API's status reasons and of Go's network
// errors, as err.Error() prints them.
var (
	transientWords = [][]byte{
		[]byte("connection refused"), []byte("connection reset"), []byte("timeout"), []byte("timed out"),
		[]byte("deadline exceeded"), []byte("too many requests"), []byte("throttl"),
		[]byte("service unavailable"), []byte("bad gateway"), []byte("internal error"),
		[]byte(conflictPhrase), []byte("conflict"), []byte("tls handshake"),
		[]byte("unexpected eof"), []byte("no such host"), []byte("temporarily unavailable"), []byte("try again"),
	}
	permanentWords = [][]byte{
		[]byte("invalid"), []byte("forbidden"), []byte("not found"), []byte("unauthorized"), []byte("is immutable"),
		[]byte("admission webhook"), []byte("denied the request"), []byte("unsupported"),
		[]byte("no matches for kind"), []byte("already exists"), []byte("bad request"),
	}
)

// classifyTail bounds the text read: a wrapped error's cause is at its end,
// and a message may be kilobytes long.
const classifyTail = 512

// ClassifyText says whether an error message looks transient (retrying can
// fix it), permanent (it cannot) or unknown, from its words alone: ClassTransient,
// ClassPermanent or ClassUnknown. It is deliberately conservative, and reads
// only the message's last 512 bytes. It allocates nothing.
func ClassifyText(msg string) string {
	if len(msg) > classifyTail {
		msg = msg[len(msg)-classifyTail:]
		for len(msg) > 0 && !utf8.RuneStart(msg[0]) {
			msg = msg[1:]
		}
	}
	var buf [classifyTail]byte
	lower := buf[:len(msg)]
	for i := range len(msg) {
		c := msg[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		lower[i] = c
	}
	t, p := containsAny(lower, transientWords), containsAny(lower, permanentWords)
	switch {
	case t && !p:
		return ClassTransient
	case p && !t:
		return ClassPermanent
	}
	return ClassUnknown
}

func containsAny(s []byte, words [][]byte) bool {
	for _, w := range words {
		if bytes.Contains(s, w) {
			return true
		}
	}
	return false
}

// conflictPhrase is the API server's words for a write refused by its
// optimistic lock (a 409 Conflict on a stale resourceVersion).
const conflictPhrase = "the object has been modified"

// IsWriteConflict says msg is the API server's optimistic-concurrency
// refusal ("Operation cannot be fulfilled on deployments.apps "web": the
// object has been modified; please apply your changes to the latest
// version and try again"): the controller's next retry reads the object
// again and resolves it.
func IsWriteConflict(msg string) bool { return strings.Contains(msg, conflictPhrase) }
