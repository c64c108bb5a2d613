"""One process, no cluster: the only case bench/reference.py runs."""


class UAITensorFlowDistRunConfigParser:
    def is_dist(self):
        return False
