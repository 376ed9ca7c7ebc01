package logs

// A line read by its words may say that a key failed and will be retried
// without saying why: virtual-kubelet's work queue (2018) logged
// log.G(ctx).Warnf("requeuing %q due to failed sync", key) then
// AddRateLimited, the handler's error on no line (batch 8's 806; later
// versions add WithError). Its message is no error: the key's last error
// says it is not in the log, as a "returned both" warning's does when its
// failure line is cut (warningNoError), rather than repeat the words that
// said the attempt failed.

// noErrorStated is the error of a failure whose line states none.
const noErrorStated = "(not in the log: its line says the attempt failed, not why)"
