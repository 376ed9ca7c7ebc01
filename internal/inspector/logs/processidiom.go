package logs

import "strings"

// "Error processing KEY: ERR" at info level: the work queue's handler in
// its other word. The CSI sidecars' workers log a failed attempt as
// klog.V(2).Infof("Error processing %q: %s", name, err) and then
// AddRateLimited the name (external-attacher's
// SyncNewOrUpdatedVolumeAttachment, the first external-snapshotter's
// SyncNewOrUpdatedVolumeSnapshot and vsdWorker: "Re-queue with exponential
// backoff"; Forget on success), and copies of client-go's work-queue
// example wrote its handleErr as glog.Infof("Error processing pod %v: %v",
// key, err) before AddRateLimited. Each opens with the phrase, names the key
// right after it (after one kind word at most) and states the error right
// after the key. The same words that name no key right after them ("Error
// processing command: ERR", "Error processing SFM job: ERR", a watch
// event's) are a loop's, not a work queue's, and stay unread; so does a
// line whose key is further in or whose error does not follow the key.

// processIdiom says whether msg, whose failure phrase is at fail and whose
// key (as messageKey returns it) is at keyAt, is the handler's "Error
// processing KEY: ERR": the phrase opens with "Error processing", at most
// one word stands between it and the key, and ": " follows the key (its
// closing quote or bracket aside).
func processIdiom(msg string, fail []int, keyAt int, key string) bool {
	if fail == nil || keyAt < fail[1] || keyAt+len(key) > len(msg) || !strings.EqualFold(msg[fail[0]:fail[1]], "error processing") {
		return false
	}
	// The key's opening quote or bracket is not a word between.
	if between := strings.Fields(strings.TrimRight(msg[fail[1]:keyAt], `"'<([{`)); len(between) > 1 || len(between) == 1 && !kindWord(between[0]) {
		return false
	}
	after := strings.TrimLeft(msg[keyAt+len(key):], `"'>)]}`)
	return strings.HasPrefix(after, ": ")
}

// kindWord says whether w is a kind as a message names one before its key
// ("pod", "VolumeSnapshot"): letters alone.
func kindWord(w string) bool {
	for _, c := range w {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z') {
			return false
		}
	}
	return true
}
