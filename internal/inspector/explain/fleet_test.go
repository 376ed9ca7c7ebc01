package explain_test

import (
	"testing"
	"time"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/explain"
)

func TestFleet(t *testing.T) {
	key := func(src string, d, due time.Duration) api.Key {
		return api.Key{DelaySource: src, Delay: dur(d), NextRetryAt: at(due)}
	}
	exp := func(due time.Duration) api.Key { return key(api.SourceItemExponential, time.Second, due) }
	tests := []struct {
		name string
		keys []api.Key
		want explain.FleetStats
	}{
		{name: "none", want: explain.FleetStats{}},
		{name: "short RequeueAfter counts, a second or other sources do not", keys: []api.Key{
			key(api.SourceRequeueAfter, 999*time.Millisecond, -time.Second), // counted even once due
			key(api.SourceRequeueAfter, time.Second, 2*time.Second),
			key(api.SourceItemExponential, 5*time.Millisecond, 3*time.Second),
			key(api.SourceRequeueAfter, 0, 0),
		}, want: explain.FleetStats{ShortRequeueAfter: 1, HerdSize: 1, HerdAt: at(2 * time.Second)}},
		{name: "largest second wins, past retries left out", keys: []api.Key{
			exp(-500 * time.Millisecond), exp(-400 * time.Millisecond), exp(-300 * time.Millisecond), exp(0),
			exp(2100 * time.Millisecond), exp(2900 * time.Millisecond),
			exp(5000 * time.Millisecond), exp(5001 * time.Millisecond), exp(5999 * time.Millisecond),
			{}, // no retry
		}, want: explain.FleetStats{HerdSize: 3, HerdAt: at(5 * time.Second)}},
		{name: "a tie goes to the earlier second", keys: []api.Key{
			exp(9 * time.Second), exp(9 * time.Second), exp(4 * time.Second), exp(4 * time.Second),
		}, want: explain.FleetStats{HerdSize: 2, HerdAt: at(4 * time.Second)}},
		{name: "keys a bucket or a spread paced are no herd", keys: []api.Key{
			key(api.SourceBucket, time.Second, 3*time.Second), key(api.SourceBucket, time.Second, 3*time.Second),
			key(api.SourceSpread, time.Second, 3*time.Second), key(api.SourceLimiter, time.Second, 3*time.Second),
			key(api.SourceRequeueAfter, 30*time.Second, 7*time.Second),
		}, want: explain.FleetStats{HerdSize: 1, HerdAt: at(7 * time.Second)}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := explain.Fleet(tt.keys, explainNow)
			if got.ShortRequeueAfter != tt.want.ShortRequeueAfter || got.HerdSize != tt.want.HerdSize || !got.HerdAt.Equal(tt.want.HerdAt) {
				t.Errorf("Fleet = %+v, want %+v", got, tt.want)
			}
		})
	}
}
