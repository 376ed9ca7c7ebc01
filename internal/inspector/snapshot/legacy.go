package snapshot

import (
	"bytes"
	"encoding/json"
	"time"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
)

// legacyController is what a snapshot of a log written before
// api.ControllerList.Source said of it on each controller.
type legacyController struct {
	Source          string    `json:"source"`
	LogSampledAt    time.Time `json:"logSampledAt"`
	LogVerbose      bool      `json:"logVerbose"`
	LogSuccessesHow string    `json:"logSuccessesHow"`
	LogEndsAt       time.Time `json:"logEndsAt"`
}

// UnmarshalJSON reads an endpoint. A file of format 1 written before the
// list said its source once carries the log's facts on each controller
// (source "logs", logEndsAt, logSampledAt, logVerbose, logSuccessesHow):
// they become Source, so that a saved log's snapshot is still judged as of
// its last line, and still says what its log cannot show.
func (e *Endpoint) UnmarshalJSON(b []byte) error {
	type plain Endpoint // its own methods: no recursion
	if err := json.Unmarshal(b, (*plain)(e)); err != nil {
		return err
	}
	if e.Source != nil || !bytes.Contains(b, []byte(`"logs"`)) {
		return nil // the second pass only for a file that may be such a log's
	}
	var old struct {
		Controllers []legacyController `json:"controllers"`
	}
	if err := json.Unmarshal(b, &old); err != nil {
		return err
	}
	for _, c := range old.Controllers {
		if c.Source != api.SourceLogs {
			continue
		}
		e.Source = &api.ListSource{Kind: api.SourceLogs, SampledAt: c.LogSampledAt, Verbose: c.LogVerbose,
			SuccessesHow: c.LogSuccessesHow, EndsAt: c.LogEndsAt}
		break
	}
	return nil
}
