package demo

import (
	"testing"
	"time"
)

// Users edit only a few naive keys, so that the others show their delay
// doubling up to the cap: an edit every editEvery spread over all of them
// would reach every key more often than its backoff can grow.
func TestUserEditsLeaveMostNaiveKeysAlone(t *testing.T) {
	for _, n := range []int{1, 2, 4, 5, 20, 21, 100, 1000} {
		e := editedKeys(n)
		if e < 1 || e > n {
			t.Errorf("editedKeys(%d) = %d, want 1..%d", n, e, n)
		}
		if n >= 5 && e > n/5 {
			t.Errorf("editedKeys(%d) = %d: more than a fifth of the naive keys are edited", n, e)
		}
	}
	if editedKeys(0) != 0 {
		t.Errorf("editedKeys(0) = %d, want 0", editedKeys(0))
	}
	// The default demo (200 keys, 10 % naive) edits 4 of its 20 naive keys;
	// each of them then sees an edit every ~12 s, the other 16 none.
	if got := time.Duration(editedKeys(20)) * editEvery; got >= time.Minute {
		t.Errorf("an edited key waits %v between edits: the demo's edits no longer show pre-empted retries", got)
	}
}
