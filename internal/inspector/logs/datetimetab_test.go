package logs

import (
	"strings"
	"testing"
	"time"
)

// TestZapConsoleDateSpaceTime: zap's console encoder with a time layout
// that holds a space (zapcore.TimeEncoderOfLayout("2006-01-02 15:04:05"))
// writes its tab after the time, then the level and the caller: the line
// is read as any zap console line of a message no dialect names, its time,
// level and caller apart from its message. Batch 10's 229, verbatim
// (https://github.com/loft-sh/vcluster/issues/3746: kube-controller-manager's
// cronjob controller's HandleError, "Unhandled Error", re-logged at INFO
// behind kubectl's --prefix), is the idiom said at info level; the same
// layout's lines that say no failure of a key are not read.
func TestZapConsoleDateSpaceTime(t *testing.T) {
	vcluster := strings.TrimRight(readTestdata(t, "testdata/batch10/229-vcluster-prefix-zapconsole-info-unhandled-error-cronjob-requeuing.log"), "\n")
	r := wantLineRead(t, vcluster, "commandwriter/commandwriter", "ns/example", `Operation cannot be fulfilled on cronjobs.batch "example"`)
	if want := time.Date(2026, 9, 16, 10, 22, 12, 0, time.UTC); !r.At.Equal(want) {
		t.Errorf("read at %v, want %v", r.At, want)
	}
	for _, line := range []string{
		"2026-09-16 10:22:12\tINFO\tsyncer/syncer.go:101\tReconciling\t{\"key\": \"ns/example\"}",
		"2026-09-16 10:22:12\tINFO\tcommandwriter/commandwriter.go:128\tUnhandled Error\t{\"err\": \"failed to list *v1.Pod: context canceled\", \"logger\": \"UnhandledError\"}",
	} {
		wantLineRead(t, line, "", "", "")
	}
}
