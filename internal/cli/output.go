package cli

import (
	"encoding/json"
	"fmt"
	"github.com/kubectl-backoff/kubectl-backoff/internal/text"
	"io"
	"slices"
	"strings"

	"github.com/spf13/cobra"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/cli-runtime/pkg/genericclioptions"
	"k8s.io/cli-runtime/pkg/printers"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
)

// outputFlags is -o as kubectl has it: kubectl's PrintFlags (json, yaml,
// kyaml, name, jsonpath, go-template and their -file variants, with
// --template), beside the formats the command prints itself as text: ""
// always, "wide" for get. Complete resolves the printer; Run only prints.
type outputFlags struct {
	flags *genericclioptions.PrintFlags
	// texts are the formats the command prints itself.
	texts []string
	// printer is kubectl's printer for the format; nil for a text format.
	printer printers.ResourcePrinter
}

// newOutputFlags returns -o bound to format. operation is what -o name
// appends to each name when the command acts (forget: "forgotten"); texts
// are the command's own formats besides "".
func newOutputFlags(format *string, operation string, texts ...string) *outputFlags {
	f := genericclioptions.NewPrintFlags(operation)
	f.OutputFormat = format
	return &outputFlags{flags: f, texts: append([]string{""}, texts...)}
}

// addFlags adds -o (and kubectl's --template and
// --allow-missing-template-keys) with help that lists every format.
func (o *outputFlags) addFlags(cmd *cobra.Command) {
	o.flags.AddFlags(cmd)
	_ = cmd.Flags().MarkHidden("show-managed-fields") // nothing here has managed fields
	cmd.Flags().Lookup("output").Usage = "Output format: " + strings.Join(o.allowed(), ", ")
}

// allowed lists the formats -o takes: the command's own first.
func (o *outputFlags) allowed() []string {
	return slices.Concat(o.texts[1:], o.flags.AllowedFormats())
}

// format is -o as given.
func (o *outputFlags) format() string { return *o.flags.OutputFormat }

// text reports whether the command prints the format itself.
func (o *outputFlags) text() bool { return o.printer == nil }

// complete resolves the printer; a format no printer takes is refused
// naming the flag and the formats it takes.
func (o *outputFlags) complete() error {
	o.printer = nil
	if slices.Contains(o.texts, o.format()) {
		return nil
	}
	p, err := o.flags.ToPrinter()
	if genericclioptions.IsNoCompatiblePrinterError(err) {
		return fmt.Errorf("--output %q: use one of %s", o.format(), strings.Join(o.allowed(), ", "))
	}
	if err != nil {
		return fmt.Errorf("--output %s: %w", o.format(), err)
	}
	o.printer = p
	return nil
}

// objectKind is what -o name calls the things a command names, as kubectl
// prints pod/NAME: key/demo/naive-00001.
type objectKind string

// The kinds -o name prints.
const (
	kindKey        objectKind = "Key"
	kindController objectKind = "Controller"
)

// print prints v with kubectl's printer: json, yaml, jsonpath and the
// templates see v as its JSON (the wire field names); -o name prints
// kind/NAME for each of names, and is refused when v names nothing.
func (o *outputFlags) print(w io.Writer, v any, kind objectKind, names ...string) error {
	if o.format() == "name" {
		if kind == "" {
			return fmt.Errorf("--output name: this output names no object; use json, yaml or jsonpath")
		}
		shown := make([]string, len(names))
		for i, n := range names {
			shown[i] = text.Printable(n) // a key is the cluster's (or a log's) text
		}
		return o.printer.PrintObj(nameList(kind, shown), w)
	}
	raw, err := json.Marshal(v)
	if err != nil {
		return err
	}
	// runtime.Unknown carries the JSON as it is: kubectl's printers take it
	// without the apiVersion and kind a Kubernetes object would have.
	return o.printer.PrintObj(&runtime.Unknown{Raw: raw, ContentType: runtime.ContentTypeJSON}, w)
}

// keyArg is a KEY argument as the user meant it. What `-o name` prints
// (key/NAMESPACE/NAME, key/NAME) is taken back, as kubectl takes back
// pod/NAME, so that `get -o name | xargs kubectl backoff forget` works. A
// key in a namespace named "key" is then written key/key/NAME.
func keyArg(arg string) string {
	prefix := strings.ToLower(string(kindKey)) + "/"
	if rest, ok := strings.CutPrefix(arg, prefix); ok && rest != "" {
		return rest
	}
	return arg
}

// keyArgs is keyArg of each of args.
func keyArgs(args []string) []string {
	out := make([]string, len(args))
	for i, a := range args {
		out[i] = keyArg(a)
	}
	return out
}

// nameList is names as a list of objects of kind, for kubectl's name printer.
func nameList(kind objectKind, names []string) *unstructured.UnstructuredList {
	l := &unstructured.UnstructuredList{Object: map[string]any{"apiVersion": api.APIVersion, "kind": string(kind) + "List"}}
	for _, n := range names {
		u := unstructured.Unstructured{}
		u.SetAPIVersion(api.APIVersion)
		u.SetKind(string(kind))
		u.SetName(n)
		l.Items = append(l.Items, u)
	}
	return l
}
