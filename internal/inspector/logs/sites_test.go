package logs

import (
	"context"
	"strings"
	"testing"
	"time"

	clocktesting "k8s.io/utils/clock/testing"
)

// TestTwoQueuesOneFileName: kube-apiserver's OpenAPI v2 and v3
// AggregationControllers log one statement from two files named
// controller.go (batch20/2001's lines 37–44, verbatim): a saved read tells
// them apart by the caller's line (sites.go); one statement from two lines
// minutes apart (a program rebuilt between two runs) stays one controller,
// as does a live read.
func TestTwoQueuesOneFileName(t *testing.T) {
	const (
		v2 = `E1207 14:05:59.923864   27308 controller.go:113] "Unhandled Error" err=<
	loading OpenAPI spec for "v1alpha2.usage.northwind.dev" failed with: failed to download v1alpha2.usage.northwind.dev: failed to retrieve openAPI spec, http error: ResponseCode: 503, Body: service unavailable
	, Header: map[Content-Type:[text/plain; charset=utf-8] X-Content-Type-Options:[nosniff]]
 > logger="UnhandledError"`
		v2Requeue = `I1207 14:05:59.923878   27308 controller.go:120] "OpenAPI AggregationController: action for item: Rate Limited Requeue" key="v1alpha2.usage.northwind.dev"`
		v3        = `E1207 14:05:59.924074   27308 controller.go:123] "Unhandled Error" err="loading OpenAPI spec for \"v1alpha2.usage.northwind.dev\" failed with: Error, could not get list of group versions for APIService" logger="UnhandledError"`
		v3Requeue = `I1207 14:05:59.925207   27308 controller.go:136] "OpenAPI AggregationController: action for item: Rate Limited Requeue" key="v1alpha2.usage.northwind.dev"`
		// v3, its program rebuilt and restarted: the same statement, from
		// another line, two minutes on.
		v3Rebuilt = `E1207 14:07:59.924074   30411 controller.go:125] "Unhandled Error" err="loading OpenAPI spec for \"v1alpha2.usage.northwind.dev\" failed with: Error, could not get list of group versions for APIService" logger="UnhandledError"`
	)
	for _, tt := range []struct {
		name  string
		lines []string
		want  map[string]int // controller: failures of the key
		live  map[string]int // where a live read differs
	}{
		{"two queues", []string{v2, v2Requeue, v3, v3Requeue},
			map[string]int{"controller.go:113": 1, "controller.go:123": 1},
			map[string]int{"controller": 2}},
		{"one queue", []string{v3, v3Requeue}, map[string]int{"controller": 1}, nil},
		{"one statement moved by a rebuild", []string{v3, v3Requeue, v3Rebuilt}, map[string]int{"controller": 2}, nil},
	} {
		t.Run(tt.name, func(t *testing.T) {
			for _, live := range []bool{false, true} {
				s := NewStore(Options{Live: live, Clock: clocktesting.NewFakePassiveClock(time.Date(2026, 12, 7, 14, 10, 0, 0, time.UTC))})
				if _, _, err := s.Read(context.Background(), strings.NewReader(strings.Join(tt.lines, "\n")+"\n")); err != nil {
					t.Fatal(err)
				}
				_, keys := s.views("")
				got := map[string]int{}
				for _, k := range keys {
					if k.Key != "v1alpha2.usage.northwind.dev" {
						t.Errorf("live %v: key %q read", live, k.Key)
					}
					got[k.Controller] = k.TotalFailures
				}
				want := tt.want
				if live && tt.live != nil {
					want = tt.live
				}
				if len(got) != len(want) {
					t.Errorf("live %v: read %v, want %v", live, got, want)
				}
				for c, n := range want {
					if got[c] != n {
						t.Errorf("live %v: read %v, want %v", live, got, want)
					}
				}
			}
		})
	}
}
