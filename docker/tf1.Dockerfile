# The "tf1" runtime as an image: TensorFlow 2.15.1 with the real Estimator: legacy_tf1 programs and TF1 code through compat.
# Installs exactly what `nox -s tf1` installs, from the same requirement files (noxfile.py INSTALLS).
#   docker build -f docker/tf1.Dockerfile -t uai-compat:tf1 .
#   docker run --rm -v "$PWD/data:/data" uai-compat:tf1 --data_dir=/data --output_dir=/tmp/model
# The Python of the project's venvs, on a tag that does not move under a rebuild.
FROM python:3.11.7-slim-bookworm

ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 PIP_DISABLE_PIP_VERSION_CHECK=1 TF_CPP_MIN_LOG_LEVEL=2
WORKDIR /opt/uai-compat

# Requirements first: the layer with TensorFlow is rebuilt only when a pin changes.
COPY requirements/tf1.txt requirements/migrate.txt requirements/test.txt requirements/
RUN pip install --no-cache-dir -r requirements/tf1.txt

COPY pyproject.toml README.md ./
COPY compat compat
COPY trainlib trainlib
COPY uai_run uai_run
COPY uai_launch uai_launch
COPY codemods codemods
COPY legacy_tf1 legacy_tf1
COPY modern_tf2 modern_tf2
COPY uaitrain uaitrain
RUN pip install --no-cache-dir --no-deps --no-build-isolation . \
    && useradd --create-home --uid 10001 uai
# Training runs as a user without rights on the installed code (by id: the host can resolve it).
USER 10001
WORKDIR /home/uai

ENTRYPOINT ["python", "-m", "legacy_tf1.imagenet_main"]
