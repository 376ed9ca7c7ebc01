package logs

import (
	"fmt"
	"strconv"
	"time"
)

// LineReading is how the reader read one line of a log: what
// --explain-lines prints for each line that yielded something or looked
// like a failure, so that a user writing a dialect, or a maintainer
// answering an issue, sees what was read and why.
type LineReading struct {
	// Line is the number of the log's line (the last physical line of a
	// klog value spread over several).
	Line int
	// Dialect, Controller and Key are the record's; empty for a line not
	// read.
	Dialect, Controller, Key string
	// At is the line's time as read; zero when unknown (none, or one that
	// cannot be true: Implausible).
	At          time.Time
	Implausible bool
	// Meaning is what the line says of the key ("failure", "gave up", …),
	// or that it looked like a failure and was not read.
	Meaning string
	// Why is what in the line made it so: the message of the dialect (or
	// the phrases the generic reader read), or why it was not read.
	Why string
}

// reading is r's LineReading.
func reading(r Record) LineReading {
	lr := LineReading{Dialect: r.Dialect, Controller: r.Controller, Key: r.Key(), At: r.At, Meaning: meaning(r)}
	switch {
	case r.Dialect == genericName:
		lr.Why = "the work-queue idiom: error or warning level, " + r.Message + ", one key; limiter assumed client-go's default"
	case r.Message != "":
		lr.Why = "the message " + strconv.Quote(r.Message)
	}
	return lr
}

// meaning says what a record means for its key.
func meaning(r Record) string {
	switch r.What {
	case ErrorLine:
		switch {
		case r.GaveUp:
			return "gave up: forgotten and not requeued, failed until the object changes"
		case r.Terminal:
			return "terminal error: not retried"
		case r.RetryIn > 0:
			return fmt.Sprintf("failure, next try in %v (stated)", r.RetryIn)
		case r.Retries > 0:
			return fmt.Sprintf("failure, retry count %d (stated)", r.Retries)
		}
		return "failure, retried after the limiter's delay (estimated)"
	case StartLine:
		return "a reconcile started"
	case SuccessLine:
		return "success: the key is forgotten"
	case RequeueAfterLine:
		return fmt.Sprintf("requeue after %v (not a failure)", r.RequeueAfter)
	case RequeueLine:
		return "Requeue: true: a rate-limited retry without an error"
	case QueueLine:
		return fmt.Sprintf("the queue's items (%d)", len(r.Items))
	case ForgetLine:
		return fmt.Sprintf("a forget of %d keys", r.Count)
	}
	return ""
}
