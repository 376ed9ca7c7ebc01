package cli

import (
	"bytes"
	"errors"
	"strings"
	"testing"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/cli-runtime/pkg/genericclioptions"
	"k8s.io/cli-runtime/pkg/genericiooptions"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/why"
)

// TestWhyOptions: bad arguments are refused naming what to give instead.
func TestWhyOptions(t *testing.T) {
	for _, tc := range []struct {
		args    []string
		flags   map[string]string
		wantErr string
	}{
		{nil, nil, "why needs an object: TYPE/NAME, TYPE NAME, -f FILE, or TYPE -l SELECTOR"},
		{[]string{"certificate/web"}, map[string]string{"filename": "x.yaml"}, "give objects as TYPE/NAME or with -f FILE, not both"},
		{[]string{"certificate/web"}, map[string]string{"controller-namespace": "cert-manager"}, "--controller-namespace is the namespace of --controller-pod: give --controller-pod too"},
		{[]string{"certificate/web"}, map[string]string{"controller-pod": "svc/cert-manager"}, `--controller-pod: target "svc/cert-manager": unknown kind "svc"`},
		{[]string{"certificate/web"}, map[string]string{"output": "table"}, `--output "table": use one of`},
		{[]string{"certificate/web"}, map[string]string{"controller-pod": "deploy/cert-manager", "controller-namespace": "cert-manager"}, ""},
		{[]string{"certificates"}, map[string]string{"watch": "true"}, "--watch follows one object: give TYPE/NAME"},
		{[]string{"certificates"}, map[string]string{"watch": "true", "selector": "app=web"}, "--watch follows one object: give TYPE/NAME"},
		{[]string{"certificate/web"}, map[string]string{"watch": "true", "from-logs": "-"}, "--watch reads --from-logs again for each answer: give a file, not -"},
		{[]string{"certificate/web"}, map[string]string{"watch": "true"}, ""},
		{nil, map[string]string{"filename": "no-such-widget.yaml"}, `-f: the path "no-such-widget.yaml" does not exist`},
		{nil, map[string]string{"filename": "why_test.go"}, ""},
	} {
		cmd, o := newWhyCommand(genericclioptions.NewConfigFlags(false), genericiooptions.NewTestIOStreamsDiscard())
		for k, v := range tc.flags {
			if err := cmd.Flags().Set(k, v); err != nil {
				t.Fatal(err)
			}
		}
		err := o.Complete(tc.args)
		if err == nil {
			err = o.Validate()
		}
		switch {
		case tc.wantErr == "" && err != nil:
			t.Errorf("%v %v: %v", tc.args, tc.flags, err)
		case tc.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tc.wantErr)):
			t.Errorf("%v %v: error %v; want %q", tc.args, tc.flags, err, tc.wantErr)
		}
	}
}

// TestWhyListMode: a TYPE alone lists; TYPE/NAME, TYPE NAME, TYPE -l and -f answer.
func TestWhyListMode(t *testing.T) {
	for _, tc := range []struct {
		args     []string
		selector string
		list     bool
	}{
		{[]string{"certificates"}, "", true},
		{[]string{"certificates.cert-manager.io"}, "", true},
		{[]string{"certificate/web"}, "", false},
		{[]string{"certificate", "web"}, "", false},
		{[]string{"certificates"}, "app=web", false}, // an answer for each selected
	} {
		o := &WhyOptions{configFlags: genericclioptions.NewConfigFlags(false), output: newOutputFlags(new(string), ""), Selector: tc.selector}
		if err := o.Complete(tc.args); err != nil {
			t.Fatal(err)
		}
		if o.list != tc.list {
			t.Errorf("%v: list %v, want %v", tc.args, o.list, tc.list)
		}
	}
}

// TestReadError: a refused read of the object says the permission, in one line.
func TestReadError(t *testing.T) {
	err := readError(apierrors.NewForbidden(schema.GroupResource{Group: "cert-manager.io", Resource: "certificates"}, "web",
		errors.New(`User "alice" cannot get resource "certificates"`)))
	want := "you may not read certificates.cert-manager.io (RBAC): why needs get and list on the kind"
	if err == nil || !strings.Contains(err.Error(), want) || strings.Contains(err.Error(), "\n") {
		t.Errorf("error %q; want one line containing %q", err, want)
	}
}

// TestPrintAnswer: the answer in words names the change, the controller and
// the rule that found it, the backoff and where it comes from, and the next step.
func TestPrintAnswer(t *testing.T) {
	now := time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)
	og := int64(6)
	a := &why.Answer{
		Object:  why.Object{APIVersion: "cert-manager.io/v1", Kind: "Certificate", Namespace: "team-a", Name: "web-tls", Key: "team-a/web-tls"},
		Verdict: why.Verdict{Status: why.InProgress, KStatus: why.InProgress, Generation: 7, ObservedGeneration: &og, Evidence: []string{"kstatus: InProgress (Certificate generation is 7, but latest observed generation is 6)"}},
		Ownership: why.Ownership{SpecChange: &why.Change{Manager: "kubectl-client-side-apply", Time: now.Add(-12 * time.Minute)},
			StatusManagers: []why.Change{{Manager: "cert-manager-certificates-issuing", Time: now.Add(-13 * time.Minute)}}},
		Controller: &why.Controller{Manager: "cert-manager-certificates-issuing", Rule: why.RuleDeploymentPart, How: "the Deployment's name begins the status manager's",
			Namespace: "cert-manager", Target: "deploy/cert-manager"},
		Backoff: &why.Backoff{Source: why.SourceLogs, Controller: "certificates-issuing", ServerTime: now, Key: &api.Key{Key: "team-a/web-tls", State: api.StateBackoff,
			Failures: 3, NextRetryAt: now.Add(40 * time.Second), Estimated: true, Source: api.SourceLogs,
			LastError: &api.ErrorRecord{Message: "issuer not found", At: now.Add(-time.Second)}}},
		Events:  nil,
		Summary: "InProgress: failing.",
		Next:    []string{"Fix what the error names: issuer not found"},
		Now:     now,
	}
	var b bytes.Buffer
	printAnswer(&b, a)
	for _, want := range []string{
		"Object:      certificate.cert-manager.io/web-tls -n team-a",
		"Change:      generation 7, changed 12m0s ago by kubectl-client-side-apply; the controller has observed 6",
		"Status manager: cert-manager-certificates-issuing (13m0s ago) [status subresource]",
		"Pods:           deploy/cert-manager -n cert-manager (not instrumented: its log is read)",
		"Found by:       deployment-prefix:",
		"Source:         the controller's log (estimated)",
		"Failures:       3 failures logged",
		"Next retry:     40s (at 10:00:40)",
		"  > Fix what the error names: issuer not found",
	} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, b.String())
		}
	}
	var l bytes.Buffer
	a.Waiting.Duration = 12 * time.Minute
	printAnswerList(&l, []*why.Answer{a}, true)
	if want := "team-a      web-tls   InProgress   12m0s     cert-manager-certificates-issuing   backoff 3×, retry 40s (estimated)"; !strings.Contains(l.String(), want) {
		t.Errorf("list lacks %q:\n%s", want, l.String())
	}
}

// TestPrintAnswerBlockersWithoutEvents: the blockers' answers are printed
// whether the object has Events or not (with none, they were left out).
func TestPrintAnswerBlockersWithoutEvents(t *testing.T) {
	now := time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)
	blocker := &why.Answer{Object: why.Object{Kind: "StorageClass", APIVersion: "storage.k8s.io/v1", Name: "fast"},
		Verdict: why.Verdict{Status: why.NotFound}, Summary: "NotFound: the StorageClass does not exist.", Now: now}
	for _, notRead := range []bool{false, true} {
		a := &why.Answer{Object: why.Object{Kind: "PersistentVolumeClaim", APIVersion: "v1", Namespace: "team-a", Name: "data"},
			Verdict: why.Verdict{Status: why.InProgress}, Summary: "InProgress: waits for its StorageClass.", Now: now,
			EventsNotRead: notRead, Blockers: []*why.Answer{blocker}}
		var b bytes.Buffer
		printAnswer(&b, a)
		if !strings.Contains(b.String(), "--- Blocker storageclass.storage.k8s.io/fast ---") || !strings.Contains(b.String(), blocker.Summary) {
			t.Errorf("events not read %v: the blocker's answer is missing:\n%s", notRead, b.String())
		}
	}
}
