package cli

import (
	"bytes"
	"strings"
	"testing"

	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/why"
)

// TestWhyControllerByAddr: a controller the user reached with --addr is an
// address, not pods in a namespace (issue 41's newcomer, item 15: "Pods:
// http://127.0.0.1:8095 -n  (instrumented)", an empty -n).
func TestWhyControllerByAddr(t *testing.T) {
	a := &why.Answer{Controller: &why.Controller{Rule: why.RuleAddr, How: "the endpoint the user named, at http://127.0.0.1:8095", Target: "http://127.0.0.1:8095", Instrumented: true}}
	var b bytes.Buffer
	printWhyController(&b, a)
	out := b.String()
	if want := "  Endpoint:       http://127.0.0.1:8095 (instrumented)\n"; !strings.Contains(out, want) || strings.Contains(out, " -n ") {
		t.Errorf("controller section:\n%s\nwant the line\n%s\nand no -n", out, want)
	}
}
