package logs

import (
	"fmt"
	"reflect"
	"time"
)

// goldenRecord is Record with its fields in the order the golden answers
// print them (testdata/golden/answers.golden: Record's order until the
// fields most lines set were put first, heldrecord.go), so that moving a
// field of Record changes no answer written there.
type goldenRecord struct {
	What                    What
	At                      time.Time
	Controller, Group, Kind string
	Namespace, Name         string
	ReconcileID             string
	Error                   string
	Terminal                bool
	RequeueAfter            time.Duration
	Items                   []QueueItem
	Sampled                 bool
	RetryIn                 time.Duration
	RetryWords              string
	Waited                  time.Duration
	WaitedWords             string
	Retries                 int
	Yearless                bool
	GaveUp                  bool
	Dialect                 string
	Message                 string
	NotRead                 string
	Tried                   string
	Template                string
	Bare                    bool
	CallerLine              int
	Line                    string
	ClientGoQueue           bool
	Forgot                  []ForgotKey
	Count                   int
	Requeue                 bool
	Spread                  time.Duration
	User, Reason            string
	Limiter                 Limiter
	LimiterOf               string
	Verbose                 bool
	Candidate               bool
	Evidence                string
	KeyFromAttempt          bool
	Alias                   string
	KnownOnly               bool
	Finished                bool
	ViaHandleError          bool
	ErrorIsMessage          bool
	ControllerWords         string
}

// goldenFormat is r as the golden answers print it: %+v of its
// goldenRecord, then its Took when set (took.go: a field the answers
// written before it lack, printed only where a line states it). It panics
// when Record has another field goldenRecord has not, or of another type:
// the golden answers would not show it.
func goldenFormat(r Record) string {
	var g goldenRecord
	gv, rv := reflect.ValueOf(&g).Elem(), reflect.ValueOf(r)
	if gv.NumField()+1 != rv.NumField() {
		panic(fmt.Sprintf("Record has %d fields, goldenRecord %d and Took", rv.NumField(), gv.NumField()))
	}
	for i := range rv.NumField() {
		name := rv.Type().Field(i).Name
		if name == "Took" {
			continue
		}
		f := gv.FieldByName(name)
		if !f.IsValid() || f.Type() != rv.Field(i).Type() {
			panic("goldenRecord has no field " + name + " of Record's type")
		}
		f.Set(rv.Field(i))
	}
	if r.Took != 0 {
		return fmt.Sprintf("%+v Took:%v", g, r.Took)
	}
	return fmt.Sprintf("%+v", g)
}
