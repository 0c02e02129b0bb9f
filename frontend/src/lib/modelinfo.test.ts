import { describe, expect, it } from 'vitest';
import { modelDetails, thinks } from './modelinfo';
import { en } from '../i18n/en';
import { fr } from '../i18n/fr';
import type { ModelInfo } from '../api/types.gen';

const qwen3: ModelInfo = { name: 'qwen3:8b', family: 'qwen3', parameter_size: '8.2B', quantization: 'Q4_K_M', size_bytes: 5_200_000_000, digest: 'sha256:1', context_length: 40960, capabilities: ['completion', 'tools', 'thinking'] };

describe('modelDetails', () => {
  it('says the size, the window and what the model does', () => {
    const d = modelDetails(qwen3, en.ollama);
    expect(d).toMatch(/^8\.2B · .*GB · 40,960-token window · thinks$/);
    expect(modelDetails(qwen3, fr.ollama)).toContain('jetons');
  });
  it('leaves out what is unknown', () => {
    expect(modelDetails({ ...qwen3, parameter_size: '', size_bytes: 0, context_length: 0, capabilities: null }, en.ollama)).toBe('');
  });
  it('tells a thinking model', () => {
    expect(thinks(qwen3)).toBe(true);
    expect(thinks({ ...qwen3, capabilities: ['completion'] })).toBe(false);
    expect(thinks(undefined)).toBe(false);
  });
});
