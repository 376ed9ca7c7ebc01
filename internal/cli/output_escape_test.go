package cli

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/cli-runtime/pkg/genericiooptions"
	"k8s.io/cli-runtime/pkg/printers"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
)

// htmlError is an error text with the characters encoding/json escapes by
// default (as crypto/x509 and a precondition write them).
const htmlError = `x509: "<nil>" a && b > c`

// TestOutputJSONEscapesAsKubectl: get -o json writes <, > and & as
// kubectl's own -o json does, where the endpoint serves them as they are.
// kubectl (cli-runtime v0.37's JSONPrinter) writes an object through
// json.MarshalIndent, which escapes them (\u003c, \u003e, \u0026):
// kubectl v1.32's `label --local -f cm.yaml -o json` of a value "<b>&c"
// prints "\u003cb\u003e\u0026c", as `get -o json` does. -o json is
// kubectl's format, so what a script does with kubectl's does with this
// one (jq reads both the same). The endpoint's encoder (query.NewEncoder)
// leaves them: a browser is kept off an answer by its Content-Type and
// nosniff (DESIGN.md's security model), and curl shows the text as logged.
func TestOutputJSONEscapesAsKubectl(t *testing.T) {
	const escaped = `x509: \"\u003cnil\u003e\" a \u0026\u0026 b \u003e c`
	u := &unstructured.Unstructured{Object: map[string]any{"apiVersion": "v1", "kind": "ConfigMap",
		"metadata": map[string]any{"name": "x"}, "data": map[string]any{"a": htmlError}}}
	var kubectl bytes.Buffer
	if err := (&printers.JSONPrinter{}).PrintObj(u, &kubectl); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(kubectl.String(), escaped) {
		t.Fatalf("kubectl's printer wrote\n%s\nwant %s in it (if kubectl stopped escaping, -o json follows it)", kubectl.String(), escaped)
	}

	// An instrumented controller whose reconcile failed with htmlError.
	ep := failingEndpointWith(t, nil, htmlError)

	// The endpoint: as it was written.
	resp, err := http.Get(ep.URL + api.DefaultPrefix + "v1/keys?controller=configmap")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if wire := `"x509: \"<nil>\" a && b > c"`; !strings.Contains(string(body), wire) {
		t.Errorf("the endpoint served\n%s\nwant %s in it (its encoder leaves <, > and & as they are)", body, wire)
	}

	// get -o json: as kubectl writes it.
	var out, errOut bytes.Buffer
	root := NewRootCommand(genericiooptions.IOStreams{In: strings.NewReader(""), Out: &out, ErrOut: &errOut})
	root.SetArgs([]string{"get", "--addr", ep.URL, "-o", "json"})
	if err := root.ExecuteContext(context.Background()); err != nil {
		t.Fatalf("get -o json: %v (stderr %s)", err, errOut.String())
	}
	if want := `"message": "` + escaped + `"`; !strings.Contains(out.String(), want) {
		t.Errorf("get -o json wrote\n%s\nwant the error as kubectl writes it: %s", out.String(), want)
	}
}
