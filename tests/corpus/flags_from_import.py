"""`from tensorflow import app, flags` import forms."""
from tensorflow import app
from tensorflow import flags

flags.DEFINE_integer("epochs", 2, "")
flags.DEFINE_string("mode", "train", "")
FLAGS = flags.FLAGS


def main(argv):
    print("epochs", FLAGS.epochs, "mode", FLAGS.mode, "argv", argv[1:])


if __name__ == "__main__":
    app.run(main)
