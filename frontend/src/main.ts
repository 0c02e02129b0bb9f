import { mount } from 'svelte';
import './app.css';
import App from './App.svelte';
import { applyCachedTheme } from './lib/theme';
import { setLanguage } from './i18n/index.svelte';

applyCachedTheme();
// The system's language until the Settings are read (they may choose another).
setLanguage('');

const app = mount(App, { target: document.getElementById('app')! });

export default app;
