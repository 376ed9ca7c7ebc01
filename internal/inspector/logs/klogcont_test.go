package logs

import (
	"strings"
	"testing"
)

func joinAll(in string) []string {
	var j joiner
	var out []string
	emit := func(b []byte) { out = append(out, strings.TrimRight(string(b), "\n")) }
	for _, l := range strings.SplitAfter(in, "\n") {
		if l == "" {
			continue
		}
		j.release([]byte(l), emit)
		j.feed([]byte(l), emit)
	}
	j.flush(emit)
	return out
}

func TestKlogContJoinsCutStructuredRecord(t *testing.T) {
	for _, tt := range []struct {
		name, in string
		want     []string
	}{{
		name: "cut before the kind field, padded piece",
		in: `E0531 13:41:24.333279       1 controller.go:329] "Reconciler error" err="boom" controller="m" ` + "\n" +
			`M="default/m1" namespace="default" name="m1" reconcileID="r1"      ` + "\n" +
			`I0531 13:41:25.000000       1 other.go:1] "next"` + "\n",
		want: []string{
			`E0531 13:41:24.333279       1 controller.go:329] "Reconciler error" err="boom" controller="m" M="default/m1" namespace="default" name="m1" reconcileID="r1"`,
			`I0531 13:41:25.000000       1 other.go:1] "next"`,
		},
	}, {
		name: "reflowed with blank lines, the last piece ends the record",
		in: `E0330 19:14:53.934128       1 controller.go:326] "Reconciler error" ` + "\n\n" +
			` err="nodes \"n1\" not found" ` + "\n" +
			` machine="ns/n1" namespace="ns" name="n1" ` + "\n\n" +
			"reconcileID=bb2b\n\n" +
			`other="x"` + "\n",
		want: []string{
			`E0330 19:14:53.934128       1 controller.go:326] "Reconciler error" err="nodes \"n1\" not found" machine="ns/n1" namespace="ns" name="n1" reconcileID=bb2b`,
			"",
			`other="x"`,
		},
	}} {
		t.Run(tt.name, func(t *testing.T) {
			if got := joinAll(tt.in); strings.Join(got, "\n") != strings.Join(tt.want, "\n") {
				t.Errorf("got\n%q\nwant\n%q", got, tt.want)
			}
		})
	}
}

func TestKlogContLeavesOtherLines(t *testing.T) {
	for _, in := range []string{
		// No trailing space: klog's own end of record.
		`E0101 00:00:00.000000 1 c.go:1] "Reconciler error" err="x"` + "\n" + `name="n1" namespace="ns"` + "\n",
		// A logrus record after a cut-looking klog line.
		`E0101 00:00:00.000000 1 c.go:1] "x" ` + "\n" + `time="2022-04-15T08:14:42Z" level=info msg="m" namespace=ns rollout=r` + "\n",
		// go-kit logfmt without a time.
		`E0101 00:00:00.000000 1 c.go:1] "x" ` + "\n" + `caller=warming.go:1 component=warmer err="y"` + "\n",
		// Free text after the cut line.
		`E0101 00:00:00.000000 1 c.go:1] "x" ` + "\n" + `name="n1" and some words` + "\n",
		// Unstructured klog.
		`E0101 00:00:00.000000 1 c.go:1] error syncing ` + "\n" + `name="n1"` + "\n",
	} {
		got := joinAll(in)
		want := strings.Split(strings.TrimSuffix(in, "\n"), "\n")
		for i := range want {
			want[i] = strings.TrimRight(want[i], " ")
		}
		for i := range got {
			got[i] = strings.TrimRight(got[i], " ")
		}
		if strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Errorf("joined %q into %q", in, got)
		}
	}
}
