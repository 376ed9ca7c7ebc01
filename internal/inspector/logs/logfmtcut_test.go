package logs

import (
	"strings"
	"testing"
)

// TestLogfmtCutAtLineEnd: a logrus record whose quoted message runs to the
// line's end unclosed, as pasted — batch 10's 205 (an inline code span that
// lost the message's closing quote, behind kubectl's --timestamps:
// https://github.com/k3s-io/helm-controller/issues/188) and the first line
// of 235 (a record a paste hard-wrapped over nine lines:
// https://github.com/kubeflow/pipelines/issues/869), verbatim — is read up
// to the line's end; 235's first piece names no key, so alone it yields
// none (the whole excerpt, its pieces joined first, yields its key:
// logfmtcont.go). A cut value that would name the key, or a cut before the line's
// level was read, is no record.
func TestLogfmtCutAtLineEnd(t *testing.T) {
	helm := strings.TrimRight(readTestdata(t, "testdata/batch10/205-k3s-helm-controller-cri-timestamp-logrus-unterminated-inline.log"), "\n")
	kfp := strings.SplitN(readTestdata(t, "testdata/batch10/235-kfp-persistence-agent-logrus-permanent-failure-forget-wrapped.log"), "\n", 2)[0]
	for _, tt := range []struct {
		name, line, controller, key, errPrefix string // key "": not read
	}{
		{"the message's closing quote lost", helm, "helm-controller", "demo0/hu002", "handler helm-controller: DesiredSet - Replace Wait batch/v1, Kind=Job demo0/helm"},
		{"a hard-wrapped record's first piece, no key in it", kfp, "", "", ""},
		{"the key field cut", `time="2023-04-24T03:47:33Z" level=error msg="Reconciler error" controller=widget error="boom" namespace=demo0 name="hu0`, "", "", ""},
		{"cut before the level", `time="2023-04-24T03:47:33Z" msg="error syncing 'demo0/hu002': boom, requeuing`, "", "", ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			wantLineRead(t, tt.line, tt.controller, tt.key, tt.errPrefix)
		})
	}
	// The same line whole reads the same: the cut changes nothing but the
	// closing quote.
	wantLineRead(t, helm+`"`, "helm-controller", "demo0/hu002", "handler helm-controller: DesiredSet")
	wantOneKey(t, readTestdata(t, "testdata/batch10/235-kfp-persistence-agent-logrus-permanent-failure-forget-wrapped.log"),
		oneKeyCase{controller: "unknown", key: "kubeflow/calculation-pipeline-grqzn", errPrefix: "CustomError (code: 1): Syncing Workflow", failures: 1})
}
