package logs

import (
	"strings"
	"testing"
)

// TestTerminalWrappedRecord: a zap console record copied from a terminal,
// hard-wrapped at its width (batch 6's 119 and 129, verbatim: metal3's
// https://github.com/metal3-io/baremetal-operator/issues/893 and
// https://github.com/rhobs/observability-operator/pull/190, a name split
// mid-word), is read as one record; a piece whose next line starts a
// record, or is wider than the terminal, is not joined to it.
func TestTerminalWrappedRecord(t *testing.T) {
	metal3 := readTestdata(t, "testdata/batch6/119-metal3-bmo-zapconsole-reconciler-error-terminal-wrapped.log")
	obs := readTestdata(t, "testdata/batch6/129-observability-operator-zapconsole-terminal-wrapped-key-split.log")
	obsLines := strings.Split(obs, "\n")
	next := `2022-09-22T21:18:42Z    INFO    observability-operator  Reconciling monitoring stack    {"stack": "openshift-operators/sample-monitoring-stack"}`
	for _, tt := range []struct {
		name, log                  string
		controller, key, errPrefix string // key "": no key read
	}{
		{"metal3, wrapped over four lines, cut at the paste's end", metal3, "baremetalhost", "openshift-machine-api/ostest-worker-0", `action "ready" failed: failed to validate BMC access`},
		{"observability-operator, the name split mid-word", obs, "monitoringstack", "openshift-operators/sample-monitoring-stack", "failed to create typed patch object (openshift-operators/sample-monitoring-stack"},
		{"a piece followed by a record's start", strings.Join([]string{obsLines[3], next}, "\n"), "", "", ""},
		{"a piece followed by a wider line", strings.Join([]string{obsLines[3], obsLines[4] + " and more than the terminal holds"}, "\n"), "", "", ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			wantOneKey(t, tt.log, oneKeyCase{controller: tt.controller, key: tt.key, errPrefix: tt.errPrefix, failures: 1})
		})
	}
}
