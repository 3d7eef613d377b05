import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { loadAll } from 'js-yaml';
import { run } from './installers';

/** The parts of Kubernetes objects the checks read. */
export interface Probe {
  httpGet?: { path?: string; port: number | string };
  tcpSocket?: { port: number | string };
  exec?: { command: string[] };
  periodSeconds?: number;
}
export interface Container {
  name: string;
  image?: string;
  ports?: Array<{ name?: string; containerPort: number }>;
  env?: Array<{ name: string; value?: string; valueFrom?: { secretKeyRef?: { name: string; key: string }; configMapKeyRef?: { name: string; key: string } } }>;
  envFrom?: Array<{ configMapRef?: { name: string }; secretRef?: { name: string } }>;
  readinessProbe?: Probe;
  livenessProbe?: Probe;
  startupProbe?: Probe;
  lifecycle?: { preStop?: { sleep?: { seconds: number }; exec?: { command: string[] } } };
  resources?: { requests?: Record<string, string>; limits?: Record<string, string> };
  securityContext?: { allowPrivilegeEscalation?: boolean; readOnlyRootFilesystem?: boolean; runAsNonRoot?: boolean; capabilities?: { drop?: string[] } };
  volumeMounts?: Array<{ name: string; mountPath: string }>;
}
export interface PodSpec {
  containers: Container[];
  initContainers?: Container[];
  terminationGracePeriodSeconds?: number;
  securityContext?: { runAsNonRoot?: boolean; runAsUser?: number };
  volumes?: Array<{ name: string; secret?: { secretName: string }; configMap?: { name: string } }>;
}
export interface K8sObject {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string; labels?: Record<string, string>; annotations?: Record<string, string> };
  data?: Record<string, string>;
  stringData?: Record<string, string>;
  spec?: {
    replicas?: number;
    /** Deployments and PDBs: `matchLabels`; Services: the labels themselves. */
    selector?: { matchLabels?: Record<string, string>; [label: string]: unknown };
    template?: { metadata?: { labels?: Record<string, string>; annotations?: Record<string, string> }; spec: PodSpec };
    /** CronJobs: the Job they make. */
    jobTemplate?: { spec?: { template?: { metadata?: { labels?: Record<string, string>; annotations?: Record<string, string> }; spec: PodSpec } } };
    volumeClaimTemplates?: unknown[];
    scaleTargetRef?: { kind: string; name: string };
    minReplicas?: number;
    maxReplicas?: number;
    podSelector?: { matchLabels?: Record<string, string> };
    policyTypes?: string[];
    /** NetworkPolicies: who may connect, on which ports. */
    ingress?: Array<{ from?: unknown[]; ports?: Array<{ port?: number | string; protocol?: string }> }>;
    tls?: Array<{ hosts?: string[]; secretName?: string }>;
    rules?: Array<{ host?: string; http?: { paths: Array<{ backend: { service?: { name: string } } }> } }>;
    ports?: Array<{ name?: string; port: number; targetPort?: number | string }>;
    /** PodMonitors (monitoring.coreos.com/v1). */
    jobLabel?: string;
    podMetricsEndpoints?: Array<{ port?: string; path?: string }>;
    namespaceSelector?: { any?: boolean; matchNames?: string[] };
    /** PrometheusRules. */
    groups?: RuleGroup[];
    minAvailable?: number | string;
    maxUnavailable?: number | string;
  };
}

/** A group of Prometheus rules: a rule file's `groups` and a PrometheusRule's `spec.groups`. */
export interface RuleGroup {
  name: string;
  rules: Array<{ alert?: string; record?: string; expr: string; for?: string; labels?: Record<string, string>; annotations?: Record<string, string> }>;
}

export const deployRoot = (workspace: string) => join(workspace, 'deploy', 'k8s');

/** Every folder under deploy/k8s whose kustomization can be built on its own (not a Component). */
export function kustomizationDirs(root: string): string[] {
  const found: string[] = [];
  const walk = (dir: string) => {
    const file = ['kustomization.yaml', 'kustomization.yml', 'Kustomization'].map((f) => join(dir, f)).find((f) => existsSync(f));
    if (file && !/^kind:\s*Component\s*$/m.test(readFileSync(file, 'utf8'))) found.push(dir);
    for (const entry of readdirSync(dir).sort()) {
      const path = join(dir, entry);
      if (statSync(path).isDirectory()) walk(path);
    }
  };
  walk(root);
  return found;
}

export function parseManifests(yaml: string): K8sObject[] {
  return loadAll(yaml).filter((doc): doc is K8sObject => Boolean(doc && typeof doc === 'object' && 'kind' in doc));
}

export interface Rendered {
  dir: string;
  /** Relative to deploy/k8s, e.g. `overlays/prod/book`. */
  name: string;
  yaml: string;
  objects: K8sObject[];
}

export function render(kustomize: string, root: string, dir: string): Rendered {
  const yaml = run(kustomize, ['build', dir]);
  return { dir, name: relative(root, dir) || '.', yaml, objects: parseManifests(yaml) };
}
