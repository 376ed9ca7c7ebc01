package api

import (
	"strings"
	"testing"
)

func TestClassifyText(t *testing.T) {
	for _, tt := range []struct{ msg, want string }{
		{"dial tcp 10.0.0.7:443: connect: connection refused", ClassTransient},
		{`Operation cannot be fulfilled on widgets "a": the object has been modified; please apply your changes to the latest version`, ClassTransient},
		{"context deadline exceeded", ClassTransient},
		{"PUT https://inventory/v1/items/a: 503 Service Unavailable", ClassTransient},
		{"read tcp 10.0.0.1:5432: i/o timeout", ClassTransient},
		{`widgets "a" is forbidden: User "x" cannot update`, ClassPermanent},
		{"spec.size: Invalid value: -1", ClassPermanent},
		{`configmaps "a" not found`, ClassPermanent},
		{"spec.storageClass must be set", ClassUnknown},
		{"quota exceeded", ClassUnknown},
		{"invalid response: connection refused", ClassUnknown},                          // both: not guessed
		{"sync uid 5503-1502: configmap not found", ClassPermanent},                     // a number is not a status
		{"invalid " + strings.Repeat("x", 600) + " connection refused", ClassTransient}, // only the tail is read
	} {
		if got := ClassifyText(tt.msg); got != tt.want {
			t.Errorf("ClassifyText(%.60q) = %s, want %s", tt.msg, got, tt.want)
		}
	}
	long := strings.Repeat("é", 600) + " connection refused"
	if n := testing.AllocsPerRun(100, func() { ClassifyText(long) }); n != 0 {
		t.Errorf("ClassifyText allocates %v times, want 0", n)
	}
}
