package cli

import (
	"bytes"
	"strings"
	"testing"

	"github.com/spf13/cobra"
)

func TestOutputFlags(t *testing.T) {
	list := printKeyList()
	names := []string{"default/w1", "default/w2", "default/g1"}
	tests := []struct {
		args    []string
		want    string // the whole output
		wantErr string
	}{
		{args: []string{"-o", "jsonpath={.items[*].key}"}, want: "default/w1 default/w2 default/g1"},
		{args: []string{"-o", "jsonpath={range .items[*]}{.key}{\" \"}{.failures}{\"\\n\"}{end}"}, want: "default/w1 17\ndefault/w2 0\ndefault/g1 2\n"},
		{args: []string{"-o", "go-template={{range .items}}{{.controller}}/{{.state}} {{end}}"}, want: "widget/backoff widget/idle gadget/queued "},
		{args: []string{"-o", "go-template", "--template", "{{.total}}"}, want: "3"},
		{args: []string{"-o", "name"}, want: "key/default/w1\nkey/default/w2\nkey/default/g1\n"},
		{args: []string{"-o", "yaml"}, want: "failures: 17\n"}, // a line of it
		{args: []string{"-o", "json"}, want: `"key": "default/w2"`},
		{args: []string{"-o", "xml"}, wantErr: `--output "xml": use one of wide, json, yaml, kyaml, name, go-template`},
		{args: []string{"-o", "jsonpath"}, wantErr: "--output jsonpath: template format specified but no template given"},
		{args: []string{"-o", "jsonpath={.items[}"}, wantErr: "--output jsonpath={.items[}"},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			var format string
			o := newOutputFlags(&format, "", "wide")
			cmd := &cobra.Command{Run: func(*cobra.Command, []string) {}}
			o.addFlags(cmd)
			if err := cmd.ParseFlags(tt.args); err != nil {
				t.Fatal(err)
			}
			err := o.complete()
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("error = %v, want one containing %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var b bytes.Buffer
			if err := o.print(&b, list, kindKey, names...); err != nil {
				t.Fatal(err)
			}
			got := b.String()
			exact := !strings.HasPrefix(tt.args[1], "json") && !strings.HasPrefix(tt.args[1], "yaml")
			if (exact && got != tt.want) || (!exact && !strings.Contains(got, tt.want)) {
				t.Errorf("printed %q, want %q", got, tt.want)
			}
		})
	}
}

// Text formats are the command's own: no printer, and "wide" only where
// the command has it.
func TestOutputFlagsText(t *testing.T) {
	for _, tt := range []struct {
		texts  []string
		format string
		text   bool
		err    bool
	}{
		{nil, "", true, false},
		{[]string{"wide"}, "wide", true, false},
		{nil, "wide", false, true},
		{nil, "json", false, false},
	} {
		format := tt.format
		o := newOutputFlags(&format, "", tt.texts...)
		err := o.complete()
		if (err != nil) != tt.err || (err == nil && o.text() != tt.text) {
			t.Errorf("texts %v, -o %q: error %v, text %v; want error %v, text %v", tt.texts, tt.format, err, o.text(), tt.err, tt.text)
		}
	}
}

// -o name on what names nothing is refused by the flag's name.
func TestOutputNameOfNothing(t *testing.T) {
	format := "name"
	o := newOutputFlags(&format, "")
	if err := o.complete(); err != nil {
		t.Fatal(err)
	}
	if err := o.print(&bytes.Buffer{}, map[string]int{"a": 1}, ""); err == nil || !strings.Contains(err.Error(), "--output name") {
		t.Errorf("error = %v, want one naming --output name", err)
	}
}
