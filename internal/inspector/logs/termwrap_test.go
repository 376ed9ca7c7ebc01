package logs

import (
	"strings"
	"testing"
)

// TestTerminalWrappedRecord: a zap console record copied from a terminal,
// hard-wrapped at its width (batch 6's 119 and 129, verbatim: metal3's
// https://github.com/metal3-io/baremetal-operator/issues/893 and
// https://github.com/rhobs/observability-operator/pull/190, a name split
// mid-word), is read as one record, and so is one whose pieces a paste
// re-spaced to unequal widths when each is cut inside a string (batch 7's
// 701, https://github.com/devfile/devworkspace-operator/issues/356); a
// piece whose next line starts a record (behind a collector's prefix or
// not), or a piece cut between fields followed by a line wider than the
// terminal, is not joined to it.
func TestTerminalWrappedRecord(t *testing.T) {
	metal3 := readTestdata(t, "testdata/batch6/119-metal3-bmo-zapconsole-reconciler-error-terminal-wrapped.log")
	obs := readTestdata(t, "testdata/batch6/129-observability-operator-zapconsole-terminal-wrapped-key-split.log")
	obsLines := strings.Split(obs, "\n")
	next := `2022-09-22T21:18:42Z    INFO    observability-operator  Reconciling monitoring stack    {"stack": "openshift-operators/sample-monitoring-stack"}`
	devworkspace := readTestdata(t, "testdata/batch7/701-devworkspace-operator-zapconsole-reconciler-error-terminal-wrapped-field-name.log")
	prefixed := `2022-09-22T21:18:43Z    ERROR   controller.monitoringstack      Reconciler error        {"reconciler group": "monitoring.rhobs", "reconciler kind": "MonitoringStack", "name": "other", "namespace": "ns", "error": "boom"}`
	// A piece cut between two fields: its object open, no string.
	betweenFields := obsLines[3][:strings.Index(obsLines[3], `"name"`)]
	for _, tt := range []struct {
		name, log                  string
		controller, key, errPrefix string // key "": no key read
	}{
		{"metal3, wrapped over four lines, cut at the paste's end", metal3, "baremetalhost", "openshift-machine-api/ostest-worker-0", `action "ready" failed: failed to validate BMC access`},
		{"observability-operator, the name split mid-word", obs, "monitoringstack", "openshift-operators/sample-monitoring-stack", "failed to create typed patch object (openshift-operators/sample-monitoring-stack"},
		{"a piece followed by a record's start", strings.Join([]string{obsLines[3], next}, "\n"), "", "", ""},
		{"devworkspace-operator, unequal pieces each cut inside a string", devworkspace, "devworkspace", "opentlc-mgr-che/spring-petclinic", "container 'maven' references undefined volume 'mavenrepo'"},
		{"a piece cut inside a string followed by a prefixed record, read on its own", strings.Join([]string{obsLines[3], "monitoring-pod manager " + prefixed}, "\n"), "monitoringstack", "ns/other", "boom"},
		{"a piece cut between fields followed by a wider line", strings.Join([]string{betweenFields, obsLines[4] + " and more than the terminal holds"}, "\n"), "", "", ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			wantOneKey(t, tt.log, oneKeyCase{controller: tt.controller, key: tt.key, errPrefix: tt.errPrefix, failures: 1})
		})
	}
}
