package explain

// UnnamedController is the name the log reader gives a controller whose
// failure lines name none (a bare client-go queue logging through Go's
// log, logrus' text): a placeholder, not a name the user can look for.
const UnnamedController = "unknown"

// ControllerWords is a controller's name as a sentence or a heading says
// it: the name itself, or, for UnnamedController, that the log does not
// name it, so that "unknown" is never read as a state ("unknown — unknown:
// no failure logged…").
func ControllerWords(name string) string {
	if name == UnnamedController {
		return "controller not named in the log"
	}
	return name
}
