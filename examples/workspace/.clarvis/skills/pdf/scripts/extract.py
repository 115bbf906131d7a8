# Example resource file: agent-skills lists and confines it, and never runs it.
import sys
print(open(sys.argv[1], "rb").read()[:100])
