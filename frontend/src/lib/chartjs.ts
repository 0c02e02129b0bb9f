// chart.js with only the parts the page draws (tree-shaken registration),
// loaded on the first visit to the Chart tab.
import {
  Chart,
  BarController,
  LineController,
  PieController,
  ScatterController,
  BarElement,
  LineElement,
  PointElement,
  ArcElement,
  CategoryScale,
  LinearScale,
  Tooltip,
  Legend,
  Filler,
} from 'chart.js';

Chart.register(
  BarController,
  LineController,
  PieController,
  ScatterController,
  BarElement,
  LineElement,
  PointElement,
  ArcElement,
  CategoryScale,
  LinearScale,
  Tooltip,
  Legend,
  Filler,
);

export { Chart };
